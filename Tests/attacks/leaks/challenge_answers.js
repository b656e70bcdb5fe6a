// attack: read the expected answers and runners under /usr from Node (the runner installs the data at @DATA_DIR@): walk the install and read every file
// expect: status in [ok]; stdout lacks "FOUND"; stdout contains "done"
const fs = require("fs");
const path = require("path");

function walk(directory, depth) {
  let entries = [];
  try {
    entries = fs.readdirSync(directory, { withFileTypes: true });
  } catch (error) {
    console.log("unlistable", directory, error.code);
    return;
  }
  for (const entry of entries) {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory() && depth < 4) walk(full, depth + 1);
    else if (entry.isFile() && /\.(out|in|json)$/.test(entry.name)) {
      console.log("FOUND", full, fs.readFileSync(full, "utf8").slice(0, 60).replace(/\n/g, " "));
    }
  }
}
walk("@DATA_DIR@", 0);
for (const root of ["/usr/local/share", "/usr/share/dsa-run"]) {
  try {
    for (const name of fs.readdirSync(root)) {
      if (name.startsWith("dsa-run")) walk(path.join(root, name), 0);
    }
  } catch (error) {
    console.log("unlistable", root, error.code);
  }
}
console.log("done");
