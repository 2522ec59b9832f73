import "server-only";
import type { MigrationProvider } from "kysely";
import { migration as m0001 } from "@/lib/server/store/migrations/0001_watch";
import { migration as m0002 } from "@/lib/server/store/migrations/0002_failure_issues";
import { migration as m0003 } from "@/lib/server/store/migrations/0003_alert_destinations";
import { migration as m0004 } from "@/lib/server/store/migrations/0004_alert_engine";
import { migration as m0005 } from "@/lib/server/store/migrations/0005_alert_summaries";
import { migration as m0006 } from "@/lib/server/store/migrations/0006_logs_by_send_time";
import { migration as m0007 } from "@/lib/server/store/migrations/0007_logs_by_id";
import { migration as m0008 } from "@/lib/server/store/migrations/0008_log_signatures";
import { migration as m0009 } from "@/lib/server/store/migrations/0009_logs_by_id_through_key";
import { migration as m0010 } from "@/lib/server/store/migrations/0010_alert_application_names";
import { migration as m0011 } from "@/lib/server/store/migrations/0011_revoked_sessions";
import { migration as m0012 } from "@/lib/server/store/migrations/0012_count_tables";
import { migration as m0013 } from "@/lib/server/store/migrations/0013_log_copies";
import { migration as m0014 } from "@/lib/server/store/migrations/0014_one_incident_per_webhook";
import { migration as m0015 } from "@/lib/server/store/migrations/0015_maintenance_windows";

/**
 * The store's migrations, in name order. Each is frozen: it imports nothing but Kysely, so an old
 * migration never changes when the code does. Data derived by live code (signatures, failure
 * issues) is filled in by the watcher when it starts (lib/server/watch/derived.ts).
 */
export const migrations: MigrationProvider = {
  getMigrations: async () => ({
    "0001_watch": m0001,
    "0002_failure_issues": m0002,
    "0003_alert_destinations": m0003,
    "0004_alert_engine": m0004,
    "0005_alert_summaries": m0005,
    "0006_logs_by_send_time": m0006,
    "0007_logs_by_id": m0007,
    "0008_log_signatures": m0008,
    "0009_logs_by_id_through_key": m0009,
    "0010_alert_application_names": m0010,
    "0011_revoked_sessions": m0011,
    "0012_count_tables": m0012,
    "0013_log_copies": m0013,
    "0014_one_incident_per_webhook": m0014,
    "0015_maintenance_windows": m0015,
  }),
};
