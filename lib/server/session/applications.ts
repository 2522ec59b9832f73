import "server-only";
import { APPLICATIONS_MAX } from "@/lib/domain/applications";
import { AppError } from "@/lib/server/app-error";
import { applicationId } from "@/lib/server/session/key-hash";
import { applicationOf, keyHint, type Application, type SessionData } from "@/lib/server/session/session";

/**
 * What a person can do to the applications of their session, as pure changes of SessionData
 * (the route seals the result into the cookie). Each refusal is a 400 that says why, and changes
 * nothing. Names are compared without regard to case or surrounding spaces.
 */

function refuse(field: "name" | "apiKey" | "_", message: string): AppError {
  return new AppError("bad_request", message, { fields: { [field]: [message] } });
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

function state(data: SessionData) {
  return { status: "signed_in" as const, data };
}

/** The application of this session (other than `except`) that already holds the key of `id`. */
function keyHolder(data: SessionData, id: string, except?: string): Application | undefined {
  return data.applications.find((app) => app.id === id && app.id !== except);
}

/** Adds an application (the key already checked against the hub); the current one stays current. */
export function addApplication(data: SessionData, input: { name: string; apiKey: string }): SessionData {
  const id = applicationId(input.apiKey);
  const holder = keyHolder(data, id);
  // Names the field by its label in the add-application form.
  if (holder)
    throw refuse(
      "apiKey",
      `API key: this key is already added, as "${holder.name}". Each application is added once.`,
    );
  if (data.applications.length >= APPLICATIONS_MAX) {
    throw refuse(
      "_",
      `This session already holds ${APPLICATIONS_MAX} applications, the most it can. Remove one you no longer need, then add this one.`,
    );
  }
  assertNameFree(data, input.name);
  const added: Application = {
    id,
    name: input.name,
    apiKey: input.apiKey,
    keyHint: keyHint(input.apiKey),
    rejected: false,
  };
  return { ...data, applications: [...data.applications, added] };
}

/** Refuses a name another application of this session already has. */
export function assertNameFree(data: SessionData, name: string, except?: string): void {
  const taken = data.applications.find((app) => app.id !== except && sameName(app.name, name));
  if (taken) throw refuse("name", `An application is already named "${taken.name}". Choose another name.`);
}

/** Makes `id` the current application (404 when the session does not hold it). */
export function switchApplication(data: SessionData, id: string): SessionData {
  return { ...data, current: applicationOf(state(data), id).id };
}

/** Removes an application; the last one cannot be removed (that is signing out). */
export function removeApplication(data: SessionData, id: string): SessionData {
  const removed = applicationOf(state(data), id);
  if (data.applications.length === 1) {
    throw refuse("_", `"${removed.name}" is the only application of this session: sign out instead.`);
  }
  const applications = data.applications.filter((app) => app.id !== removed.id);
  const current = data.current === removed.id ? applications[0]!.id : data.current;
  return { ...data, applications, current };
}

/** Marks an application whose key the hub answered 401 to (rotated or revoked). */
export function markRejected(data: SessionData, id: string): SessionData {
  return {
    ...data,
    applications: data.applications.map((app) => (app.id === id ? { ...app, rejected: true } : app)),
  };
}

/** Gives an application a new key (the hub accepted it); its id follows the key, and it stays current if it was. */
export function replaceKey(data: SessionData, id: string, apiKey: string): SessionData {
  const replaced = applicationOf(state(data), id);
  const newId = applicationId(apiKey);
  const holder = keyHolder(data, newId, replaced.id);
  // Names the field by its label in the replace-key and hand-over forms.
  if (holder) {
    throw refuse(
      "apiKey",
      `New API key for ${replaced.name}: this is the key of "${holder.name}", already in your session. Paste ${replaced.name}'s new key.`,
    );
  }
  const applications = data.applications.map((app) =>
    app.id === replaced.id ? { ...app, id: newId, apiKey, keyHint: keyHint(apiKey), rejected: false } : app,
  );
  return { ...data, applications, current: data.current === replaced.id ? newId : data.current };
}

/** Renames an application. */
export function renameApplication(data: SessionData, id: string, name: string): SessionData {
  const renamed = applicationOf(state(data), id);
  assertNameFree(data, name, renamed.id);
  return {
    ...data,
    applications: data.applications.map((app) => (app.id === renamed.id ? { ...app, name } : app)),
  };
}
