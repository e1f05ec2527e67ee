// Loaded into a reconciler child of the SQLite chaos run (node --require), never into giro itself: fills the
// "disk" of giro's own SQLite connections on demand. While the file named by CHAOS_DISK_FULL_FILE exists, each
// connection's max_page_count is held at the database's current size, so a write that needs one more page
// fails with SQLITE_FULL, as on a full disk; once the file is gone, the limit is lifted again. It has to run in
// giro's process: max_page_count is a setting of one connection, which another process cannot lower.
const Module = require('node:module');
const { existsSync } = require('node:fs');

const control = process.env.CHAOS_DISK_FULL_FILE;
const connections = new Set();
const patched = Symbol('chaos disk full');
const load = Module._load;

Module._load = function loadAndRecordConnections(request, ...rest) {
  const exported = load.call(this, request, ...rest);
  if (request === 'better-sqlite3' && typeof exported === 'function' && !exported.prototype[patched]) {
    exported.prototype[patched] = true;
    // Every statement giro runs is prepared first: the connection is recorded on its first one.
    const prepare = exported.prototype.prepare;
    exported.prototype.prepare = function prepareAndRecord(...args) {
      if (this.open) connections.add(this);
      return prepare.apply(this, args);
    };
  }
  return exported;
};

let full = false;
let unlimited;
setInterval(() => {
  const wanted = control !== undefined && existsSync(control);
  if (wanted === full) return;
  full = wanted;
  for (const db of connections) {
    if (!db.open) {
      connections.delete(db);
      continue;
    }
    unlimited ??= db.pragma('max_page_count', { simple: true });
    const pages = full ? db.pragma('page_count', { simple: true }) : unlimited;
    db.pragma(`max_page_count = ${Number(pages)}`);
  }
}, 50).unref();
