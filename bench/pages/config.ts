/**
 * The settings of the render pages (`ours-render.tsx`, `official-render.tsx`), read from the page's
 * query string the same way by both: `api` (the emulator's origin), `project`, `key` (publishable
 * client key). The pages are built once and pointed at an emulator on a free port.
 */
export const pageConfig = () => {
  const query = new URLSearchParams(location.search)
  return { baseUrl: query.get("api") ?? "", projectId: query.get("project") ?? "", publishableClientKey: query.get("key") ?? "" }
}
