import { z } from "zod/mini";
import { findTargetInput } from "@/lib/domain/inputs/find-delivery";
import { FIND_ACROSS_LABEL } from "@/lib/domain/watch/find-across";

/**
 * The header's Find: a message ID, a log ID or a console link to a delivery, looked up in every
 * watched webhook of every application in the session (`GET /api/watches/find?q=`).
 */

export const findAcrossQuerySchema = z.strictObject({ q: findTargetInput(FIND_ACROSS_LABEL) });
