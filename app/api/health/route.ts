import { defineRoute } from "@/lib/server/http/route";

/** Liveness: 200 while the process can serve. Reads no session, calls nothing upstream. */
export const GET = defineRoute({
  async handle() {
    return Response.json({ status: "ok" });
  },
});
