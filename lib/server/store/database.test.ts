import { spawn } from "node:child_process";
import { once } from "node:events";
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

it("a new file another process holds locked past the busy timeout is opened once it lets go", async () => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), "watch-db-")), "watch.sqlite");
  // Another process starting on the same new file, inside its first write for 5.5 s: switching
  // to WAL waits SQLite's busy timeout (5 s), is refused, and is tried again.
  const holder = spawn(
    process.execPath,
    [
      "-e",
      `const db = new (require("better-sqlite3"))(${JSON.stringify(file)});
       db.exec("begin exclusive"); console.log("locked");
       setTimeout(() => { db.exec("commit"); db.close(); }, 5500);`,
    ],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  await once(holder.stdout, "data");
  const { db } = await openDatabase({ kind: "sqlite", path: file });
  expect(await db.selectFrom("watches").selectAll().execute()).toEqual([]);
  await db.destroy();
  await once(holder, "exit");
}, 20_000);
