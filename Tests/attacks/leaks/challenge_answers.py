# attack: read the expected answers, runners and policies where the documented install puts them: under /usr (the runner installs the data at @DATA_DIR@), by glob and by name
# expect: status in [ok]; stdout lacks "FOUND"; stdout contains "done"
import glob
import os

patterns = [
    "@DATA_DIR@/challenges/*/tests/*.out", "@DATA_DIR@/challenges/*/challenge.json", "@DATA_DIR@/runners/*.json",
    "@DATA_DIR@/policies/*.json", "/usr/share/dsa-run/*/*", "/usr/local/share/*/challenges/*/tests/*.out",
    "/usr/local/*/challenges/*/tests/*.out", "/usr/local/share/*/runners/*.json", "/usr/share/*/challenges/*/tests/*.out",
]
for pattern in patterns:
    for path in glob.glob(pattern)[:3]:
        try:
            with open(path) as handle:
                print("FOUND", path, handle.read(80).replace("\n", " "))
        except OSError as error:
            print("unreadable", path, error.strerror)
for name in ["challenges", "runners", "policies"]:
    try:
        print(name, os.listdir(os.path.join("@DATA_DIR@", name)))
    except OSError as error:
        print(name, error.strerror)
print("done")
