/** Readiness of the bare app for the bench. */
export function GET() {
  return new Response("ok");
}
