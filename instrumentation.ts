/**
 * Runs once when a console server starts, before it takes requests: checks the configuration
 * (SESSION_SECRET length, SESSION_SECRET_PREVIOUS, HUB_BASE_URL, timeouts, …) and refuses to
 * start, naming the variable, when one is wrong. Better than failing on the first sign-in.
 */
export { register } from "@/lib/server/register";
