import "server-only";
import { headers } from "next/headers";
import { PAGE_ADDRESS_HEADER, parsePageAddress } from "@/lib/server/http/page-address";
import { parseApplicationId, type ApplicationSummary } from "@/lib/domain/applications";
import { currentApplication, type Application, type SessionData } from "@/lib/server/session/session";

/** The page's address as proxy.ts saw it, or null (outside a page request). */
export async function pageAddress(): Promise<URL | null> {
  return parsePageAddress((await headers()).get(PAGE_ADDRESS_HEADER));
}

/**
 * The application a page shows: the one its `?app=` names when the session holds it, else the
 * current one. (A page whose `?app=` the session does not hold answers "not found" itself.)
 */
export function shownApplication(data: SessionData, appParam: string | null | undefined): Application {
  const named = parseApplicationId(appParam);
  return data.applications.find((app) => app.id === named) ?? currentApplication(data);
}

/** What of an application a page may hand to the browser: never the key. */
export function summaryOf({ id, name, keyHint, rejected }: ApplicationSummary): ApplicationSummary {
  return { id, name, keyHint, rejected };
}

/** `/webhooks` for the current application; `/webhooks?app=…` for another, so the list stays on the application shown. */
export function webhooksHref(data: SessionData, appId: string): string {
  return appId === data.current ? "/webhooks" : `/webhooks?app=${appId}`;
}
