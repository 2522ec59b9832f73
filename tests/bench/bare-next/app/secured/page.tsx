// The same page, served with the console's security headers (next.config.mjs): what those cost.
export { default } from "../page";

// Rendered for each request, as `/` is (route options are read from each page's own file).
export const dynamic = "force-dynamic";
