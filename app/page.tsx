import { redirect } from "next/navigation";
import { getSession } from "@/lib/server/session/session";
import { watchStore } from "@/lib/server/watch/store";
import { sessionAppIds } from "@/app/api/watches/overview-answer";

/** Where `/` leads: the Overview once something of the session's applications is watched, else the webhooks. */
async function hasWatches(): Promise<boolean> {
  const session = await getSession();
  if (session.status !== "signed_in") return false;
  try {
    return (await (await watchStore()).listWatches(sessionAppIds(session.data))).length > 0;
  } catch {
    // The store is down: the webhooks pages still work from the hub.
    return false;
  }
}

export default async function Home() {
  redirect((await hasWatches()) ? "/overview" : "/webhooks");
}
