/** Floor of bundle entry (a): see `floor/client.ts`. */
export { getCurrentUser } from "./floor/client.js"
