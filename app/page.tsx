import { redirect } from "next/navigation";
import { listWatches } from "@/lib/server/watch/watches";
import { withStore } from "@/lib/server/store/context";
import type { SessionData } from "@/lib/server/session/session";
import { requireSignedInPage } from "@/lib/server/session/redirect";

import { storeAccess } from "@/lib/server/watch/store-access";
import { appIdsOf } from "@/app/api/watches/overview-answer";

async function hasWatches(session: SessionData): Promise<boolean> {
  try {
    const { allowed } = await storeAccess(session.applications);
    return (await withStore((ctx) => listWatches(ctx, appIdsOf(allowed)))).length > 0;
  } catch {
    // The store is down: the webhooks pages still work from the hub.
    return false;
  }
}

/**
 * Where `/` leads: the Overview once something of the session's applications is watched, else the
 * webhooks. Signed out, the sign-in comes back here, so that this is decided with the session.
 */
export default async function Home() {
  const session = await requireSignedInPage("/");
  redirect((await hasWatches(session)) ? "/overview" : "/webhooks");
}
