/** TEST ONLY. A Playwright browser context signed in to a console by its session cookie. */
import type { Browser, BrowserContext } from "playwright-core";

/** A browser context that carries the session cookie (`name=value`) for the console at `consoleUrl`. */
export async function signedInContext(
  browser: Browser,
  consoleUrl: string,
  cookie: string,
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: consoleUrl });
  const eq = cookie.indexOf("=");
  const name = cookie.slice(0, eq);
  // A __Host-/__Secure- cookie must be Secure; Chromium sends Secure cookies to http://127.0.0.1.
  // (Given a `url`, Playwright marks an http cookie not Secure and Chromium refuses the prefix.)
  const secure = name.startsWith("__Host-") || name.startsWith("__Secure-");
  const domain = new URL(consoleUrl).hostname;
  await context.addCookies([
    { name, value: cookie.slice(eq + 1), domain, path: "/", secure, httpOnly: true, sameSite: "Lax" },
  ]);
  return context;
}
