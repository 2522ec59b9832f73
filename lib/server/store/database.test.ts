import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { openDatabase } from "@/lib/server/store/database";

it("two opens of one new SQLite file at once both end migrated", async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "watch-db-")), "watch.sqlite");
  const opened = await Promise.all([1, 2, 3].map(() => openDatabase({ kind: "sqlite", path: file })));
  for (const { db } of opened) {
    expect(await db.selectFrom("watches").selectAll().execute()).toEqual([]);
    await db.destroy();
  }
});
