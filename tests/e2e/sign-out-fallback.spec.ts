/**
 * Sign out ends the session for good even when its own call fails: the button then goes through
 * `GET /api/session/end`, which revokes the session as `DELETE /api/session` does, so a copy of
 * the cookie taken before stops working.
 */
import { expect, test } from "./fixtures/test";

test("when Sign out's own call fails, its fallback still revokes the session: a copied cookie stops working", async ({
  page,
  context,
  baseURL,
  sandbox,
  signInWithKey,
}) => {
  const demo = await sandbox.demo();
  const webhook = `${baseURL}/api/webhooks/${demo.webhooks[0]!.id}`;
  // A session of its own: the worker's shared demo session must outlive this sign-out.
  await signInWithKey(demo.apiKey);
  await page.goto("/webhooks");
  const signOut = page.getByRole("button", { name: "Sign out" });
  await expect(signOut).toBeEnabled();
  const session = (await context.cookies(baseURL)).find((c) => c.name === "__Host-hub_console")!;
  const copy = `${session.name}=${session.value}`;
  const statusWith = async (cookie: string) => (await fetch(webhook, { headers: { cookie } })).status;
  expect(await statusWith(copy)).toBe(200);

  let refused = 0;
  await page.route("**/api/session", (route) => {
    if (route.request().method() !== "DELETE") return route.continue();
    refused++;
    return route.abort("connectionreset");
  });
  await signOut.click();
  await expect(page).toHaveURL(/\/login/, { timeout: 30_000 });
  expect(refused).toBe(1);
  await expect
    .poll(async () => (await context.cookies(baseURL)).find((c) => c.name === session.name))
    .toBeUndefined();

  expect(await statusWith(copy)).toBe(401);
  const answer = await fetch(`${baseURL}/api/session`, { headers: { cookie: copy } });
  expect(await answer.json()).toEqual({ signedIn: false, keyHint: null });
});
