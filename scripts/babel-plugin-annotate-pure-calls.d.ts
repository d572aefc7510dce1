/** The plugin ships no types: it is a Babel plugin object (a function of Babel's API). */
declare module "babel-plugin-annotate-pure-calls" {
  import type { PluginItem } from "@babel/core"
  const plugin: PluginItem
  export default plugin
}
