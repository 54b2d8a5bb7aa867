//! The Unity package in `unity-sample/` (com.sinew.animation), checked without Unity.
//!
//! - `unity_package_compiles_against_shim`: compiles, with Mono's `mcs`,
//!   1. `tests/unity-shim/*.cs` into a stand-in `UnityEngine.dll` (a compile check declaring the
//!      slice of Unity 2021.3's API the package uses; NOT a substitute for Unity),
//!   2. the package's `Runtime/**/*.cs` (minus the staged copies in `Runtime/Bindings/`) with
//!      `bindings/csharp/*.cs` into `Sinew.Animation.dll`:
//!      `mcs -unsafe -define:UNITY_2021_3_OR_NEWER -target:library`, as is, with `UNITY_EDITOR`,
//!      and with `UNITY_IOS` (a player build: the `__Internal` import path),
//!   3. `Samples~/**/*.cs` against both, as the sample's asmdef references the runtime's.
//!
//!   Every step must succeed, and the package's own sources (and the shim) must compile without
//!   a warning at `-warn:4`; warnings in the bindings are printed, not judged here.
//!   Without `mcs` on PATH (override with `MCS`) when sinew was built, the test is ignored with
//!   that reason (build.rs); `SINEW_REQUIRE_TOOLS=1`, as in `.ci/run`, keeps it, so it fails.
//! - `meta_files_are_valid_and_unique`: every `.meta` parses as Unity's YAML-ish key/value
//!   lines, has `fileFormatVersion: 2` and a 32-hex-digit GUID unique in the package, belongs to
//!   an asset that exists (or is staged by `scripts/stage_unity.sh`), and uses the importer its
//!   file type needs; every asset outside `Documentation~` has one.
//!   (`meta_parser_rejects_malformed_files` checks the parser itself on broken samples.)
//! - `plugin_import_settings_match_platforms`: each native plug-in's `.meta` enables exactly
//!   its platform and CPU (and the editor where one can load it), its "Any Platform" excludes
//!   agree, no two plug-ins of one file name claim the same platform and CPU, and the staging
//!   script copies builds to exactly these paths.
//! - `package_manifest_and_asmdefs`: `package.json` (name, Unity 2021.3, the crate's version,
//!   sample paths that exist), the runtime asmdef (unsafe code, no references), and each
//!   MonoBehaviour living in a file of its own name (Unity needs it to attach the component).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

const MANIFEST_DIR: &str = env!("CARGO_MANIFEST_DIR");

fn repo() -> &'static Path {
    Path::new(MANIFEST_DIR)
}

fn package() -> PathBuf {
    repo().join("unity-sample")
}

/// Path of `p` relative to the package, with `/` separators.
fn rel(p: &Path) -> String {
    p.strip_prefix(package())
        .expect("inside the package")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect::<Vec<_>>()
        .join("/")
}

/// Every file and folder below `dir`, depth first, sorted; hidden entries are skipped.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("dir entry").path())
        .filter(|p| !p.file_name().unwrap().to_string_lossy().starts_with('.'))
        .collect();
    entries.sort();
    for p in entries {
        out.push(p.clone());
        if p.is_dir() {
            walk(&p, out);
        }
    }
}

fn package_entries() -> Vec<PathBuf> {
    let mut all = Vec::new();
    walk(&package(), &mut all);
    all
}

// ---- .meta files -----------------------------------------------------------------------------

/// One parsed line of a `.meta` file: its depth (spaces, counting a `- ` list marker as
/// indentation), whether it starts a list item, its key and its value.
#[derive(Debug, Clone)]
struct Line {
    depth: usize,
    item: bool,
    key: String,
    value: String,
    /// `key:` with nothing after it (not even a space): opens a nested block.
    opens: bool,
}

#[derive(Debug)]
struct Meta {
    guid: String,
    importer: String,
    folder: bool,
    lines: Vec<Line>,
}

/// Parses Unity's serialized YAML subset: `key: value`, `key:` opening a block, `: value` (the
/// empty key Unity writes in plug-in platform data), `- ` list items, flow values `{...}` and
/// `[...]`, two-space indentation that only deepens after a line opening a block.
fn parse_meta(text: &str) -> Result<Meta, String> {
    let mut lines: Vec<Line> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let at = |m: &str| format!("line {}: {m}: {raw:?}", n + 1);
        if raw.trim().is_empty() {
            continue;
        }
        if raw.contains('\t') {
            return Err(at("tab character"));
        }
        let spaces = raw.len() - raw.trim_start_matches(' ').len();
        let mut body = &raw[spaces..];
        let mut depth = spaces;
        let item = body.starts_with("- ");
        if item {
            body = &body[2..];
            depth += 2;
        }
        if spaces % 2 != 0 {
            return Err(at("odd indentation"));
        }
        let (key, value, opens) = if let Some(k) = body.strip_suffix(':') {
            (k, "", true)
        } else if let Some(i) = body.find(": ") {
            (&body[..i], &body[i + 2..], false)
        } else {
            return Err(at("not a `key: value` line"));
        };
        if key.starts_with(' ') || key.ends_with(' ') {
            return Err(at("malformed key"));
        }
        let value = value.trim_end();
        for (open, close) in [('{', '}'), ('[', ']')] {
            if value.starts_with(open) != value.ends_with(close) {
                return Err(at("unbalanced flow value"));
            }
        }
        if let Some(prev) = lines.last() {
            if prev.opens && depth != prev.depth + 2 {
                return Err(at(
                    "a block opened by `key:` must be indented two more spaces",
                ));
            }
            if !prev.opens && depth > prev.depth {
                return Err(at("indentation deepens without an opening `key:` line"));
            }
        }
        lines.push(Line {
            depth,
            item,
            key: key.to_owned(),
            value: value.to_owned(),
            opens,
        });
    }
    if let Some(last) = lines.last() {
        if last.opens {
            return Err(format!(
                "the last line `{}:` opens an empty block",
                last.key
            ));
        }
    }
    let top: Vec<&Line> = lines.iter().filter(|l| l.depth == 0).collect();
    match top.first() {
        Some(l) if l.key == "fileFormatVersion" && l.value == "2" => {}
        _ => return Err("the first line is not `fileFormatVersion: 2`".into()),
    }
    let guid = match top.get(1) {
        Some(l) if l.key == "guid" => l.value.clone(),
        _ => return Err("the second line is not `guid: ...`".into()),
    };
    if guid.len() != 32
        || !guid
            .chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_uppercase())
    {
        return Err(format!("guid {guid:?} is not 32 lowercase hex digits"));
    }
    if guid.chars().all(|c| c == '0') {
        return Err("guid is all zeros".into());
    }
    let folder = top
        .iter()
        .any(|l| l.key == "folderAsset" && l.value == "yes");
    let importers: Vec<&&Line> = top
        .iter()
        .filter(|l| l.opens && l.key.ends_with("Importer"))
        .collect();
    if importers.len() != 1 {
        return Err(format!(
            "expected one top-level importer, found {}",
            importers.len()
        ));
    }
    let importer = importers[0].key.clone();
    Ok(Meta {
        guid,
        importer,
        folder,
        lines,
    })
}

/// Package-relative paths that are build products copied in by `scripts/stage_unity.sh` (and
/// ignored by git): their `.meta` is committed, the asset may be absent.
fn staged_asset(rel_path: &str) -> bool {
    if let Some(name) = rel_path.strip_prefix("Runtime/Bindings/") {
        return repo().join("bindings/csharp").join(name).is_file();
    }
    PLUGINS.iter().any(|p| p.path == rel_path)
}

/// The importer Unity uses for an asset of this package.
fn expected_importer(rel_path: &str, is_dir: bool) -> &'static str {
    if is_dir {
        return "DefaultImporter";
    }
    if PLUGINS.iter().any(|p| p.path == rel_path) {
        return "PluginImporter";
    }
    let name = rel_path.rsplit('/').next().unwrap();
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("cs") => "MonoImporter",
        Some("asmdef") => "AssemblyDefinitionImporter",
        Some("md") => "TextScriptImporter",
        Some("json") if name == "package.json" => "PackageManifestImporter",
        _ => panic!("no importer rule for {rel_path}: add one to this test"),
    }
}

fn read_metas() -> BTreeMap<String, Meta> {
    let mut metas = BTreeMap::new();
    for p in package_entries() {
        if p.extension().is_some_and(|e| e == "meta") {
            let text = std::fs::read_to_string(&p).expect("read .meta");
            let meta = parse_meta(&text).unwrap_or_else(|e| panic!("{}: {e}", rel(&p)));
            metas.insert(rel(&p), meta);
        }
    }
    metas
}

#[test]
fn meta_files_are_valid_and_unique() {
    let metas = read_metas();
    assert!(metas.len() > 40, "found only {} .meta files", metas.len());

    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for (path, meta) in &metas {
        if let Some(other) = seen.insert(&meta.guid, path) {
            panic!("{path} and {other} share the GUID {}", meta.guid);
        }
    }

    // Each .meta belongs to an asset, with the importer that asset needs.
    for (path, meta) in &metas {
        let asset = path.strip_suffix(".meta").unwrap();
        let full = package().join(asset);
        let is_dir = full.is_dir();
        assert!(
            full.exists() || staged_asset(asset),
            "{path}: no such asset (and it is not one scripts/stage_unity.sh stages)"
        );
        assert_eq!(
            is_dir, meta.folder,
            "{path}: folderAsset does not match the asset"
        );
        assert_eq!(
            meta.importer,
            expected_importer(asset, is_dir),
            "{path}: wrong importer"
        );
    }

    // Each asset has a .meta (Unity ignores, and for immutable packages warns about, assets
    // without one). `~` folders are not imported: only the sample's files carry metas, so an
    // imported sample keeps its GUIDs.
    for p in package_entries() {
        let r = rel(&p);
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if r.ends_with(".meta") || name.ends_with('~') || r.starts_with("Documentation~") {
            continue;
        }
        if r.starts_with("Runtime/Bindings/") && !p.is_dir() {
            continue; // staged copies; checked below
        }
        if p.is_file() && staged_asset(&r) {
            continue; // a staged native library: its .meta is checked above
        }
        assert!(
            metas.contains_key(&format!("{r}.meta")),
            "{r} has no .meta: Unity needs one for every asset of a package"
        );
    }

    // Every C# binding file that staging copies in has a committed .meta (so its GUID is
    // fixed), and no staged-binding .meta is left over from a removed file.
    let mut bindings = BTreeSet::new();
    for e in std::fs::read_dir(repo().join("bindings/csharp")).expect("bindings/csharp") {
        let name = e.expect("entry").file_name().to_string_lossy().into_owned();
        if name.ends_with(".cs") {
            bindings.insert(format!("Runtime/Bindings/{name}.meta"));
        }
    }
    assert!(!bindings.is_empty(), "no bindings/csharp/*.cs");
    let staged: BTreeSet<String> = metas
        .keys()
        .filter(|k| k.starts_with("Runtime/Bindings/") && k.matches('/').count() == 2)
        .cloned()
        .collect();
    assert_eq!(
        staged, bindings,
        "Runtime/Bindings/*.meta must match bindings/csharp/*.cs one to one \
         (scripts/stage_unity.sh writes a missing one: commit it)"
    );
}

#[test]
fn meta_parser_rejects_malformed_files() {
    let good = "fileFormatVersion: 2\nguid: 0123456789abcdef0123456789abcdef\n\
                DefaultImporter:\n  externalObjects: {}\n  userData: \n";
    assert!(parse_meta(good).is_ok());
    let bad = [
        good.replace("guid: 0123", "guid: 0G23"),
        good.replace("fileFormatVersion: 2", "fileFormatVersion: 1"),
        good.replace("  externalObjects", "    externalObjects"),
        good.replace("  userData: \n", "  userData\n"),
        good.replace("{}", "{"),
        good.replace("  ", "\t"),
        format!("{good}  trailing:\n"),
        good.replace("DefaultImporter", "Default"),
    ];
    for text in &bad {
        assert!(parse_meta(text).is_err(), "accepted:\n{text}");
    }
}

// ---- plug-in import settings -----------------------------------------------------------------

struct Plugin {
    path: &'static str,
    /// The enabled platform (`Group: Name` as Unity writes it) and its CPU.
    platform: &'static str,
    cpu: &'static str,
    /// The editor that loads this build (OS, CPU), if any.
    editor: Option<(&'static str, &'static str)>,
    /// The `Exclude ...` key of "Any Platform" for this platform.
    exclude: &'static str,
}

const PLUGINS: &[Plugin] = &[
    Plugin {
        path: "Plugins/Linux/x86_64/libsinew.so",
        platform: "Standalone: Linux64",
        cpu: "x86_64",
        editor: Some(("Linux", "x86_64")),
        exclude: "Exclude Linux64",
    },
    Plugin {
        path: "Plugins/Linux/arm64/libsinew.so",
        platform: "Standalone: Linux64",
        cpu: "ARM64",
        editor: Some(("Linux", "ARM64")),
        exclude: "Exclude Linux64",
    },
    Plugin {
        path: "Plugins/Windows/x86_64/sinew.dll",
        platform: "Standalone: Win64",
        cpu: "x86_64",
        editor: Some(("Windows", "x86_64")),
        exclude: "Exclude Win64",
    },
    Plugin {
        path: "Plugins/Windows/arm64/sinew.dll",
        platform: "Standalone: Win64",
        cpu: "ARM64",
        editor: Some(("Windows", "ARM64")),
        exclude: "Exclude Win64",
    },
    Plugin {
        path: "Plugins/macOS/x86_64/libsinew.dylib",
        platform: "Standalone: OSXUniversal",
        cpu: "x86_64",
        editor: Some(("OSX", "x86_64")),
        exclude: "Exclude OSXUniversal",
    },
    Plugin {
        path: "Plugins/macOS/arm64/libsinew.dylib",
        platform: "Standalone: OSXUniversal",
        cpu: "ARM64",
        editor: Some(("OSX", "ARM64")),
        exclude: "Exclude OSXUniversal",
    },
    Plugin {
        path: "Plugins/Android/arm64-v8a/libsinew.so",
        platform: "Android: Android",
        cpu: "ARM64",
        editor: None,
        exclude: "Exclude Android",
    },
    Plugin {
        path: "Plugins/iOS/libsinew.a",
        platform: "iPhone: iOS",
        cpu: "AnyCPU",
        editor: None,
        exclude: "Exclude iOS",
    },
];

/// One `platformData` entry: the platform (`first`), `enabled` and its settings.
#[derive(Debug)]
struct PlatformEntry {
    platform: String,
    enabled: bool,
    settings: BTreeMap<String, String>,
}

fn platform_data(meta: &Meta) -> Vec<PlatformEntry> {
    let mut out: Vec<PlatformEntry> = Vec::new();
    let mut section = "";
    let mut lines = meta.lines.iter().peekable();
    while let Some(l) = lines.next() {
        if l.item && l.key == "first" {
            let id = lines.next().expect("a platform after `first:`");
            out.push(PlatformEntry {
                platform: format!("{}: {}", id.key, id.value).trim().to_owned(),
                enabled: false,
                settings: BTreeMap::new(),
            });
            section = "first";
            continue;
        }
        let Some(entry) = out.last_mut() else {
            continue;
        };
        match (l.key.as_str(), l.depth) {
            ("second", _) => section = "second",
            ("enabled", _) if section == "second" => entry.enabled = l.value == "1",
            ("settings", _) => section = "settings",
            (_, 8) if section == "settings" => {
                entry.settings.insert(l.key.clone(), l.value.clone());
            }
            (_, d) if d <= 2 => section = "",
            _ => {}
        }
    }
    out
}

#[test]
fn plugin_import_settings_match_platforms() {
    let metas = read_metas();
    let plugin_metas: BTreeSet<&str> = metas
        .iter()
        .filter(|(_, m)| m.importer == "PluginImporter")
        .map(|(k, _)| k.strip_suffix(".meta").unwrap())
        .collect();
    let expected: BTreeSet<&str> = PLUGINS.iter().map(|p| p.path).collect();
    assert_eq!(plugin_metas, expected, "plug-in .meta files");

    let mut claims: BTreeMap<(String, String, String), &str> = BTreeMap::new();
    for p in PLUGINS {
        let meta = &metas[&format!("{}.meta", p.path)];
        let data = platform_data(meta);
        let by_name: BTreeMap<&str, &PlatformEntry> =
            data.iter().map(|e| (e.platform.as_str(), e)).collect();
        assert_eq!(by_name.len(), data.len(), "{}: repeated platform", p.path);
        for must in [": Any", "Any:", "Editor: Editor", p.platform] {
            assert!(by_name.contains_key(must), "{}: no {must:?} entry", p.path);
        }

        let enabled: BTreeSet<&str> = data
            .iter()
            .filter(|e| e.enabled)
            .map(|e| e.platform.as_str())
            .collect();
        let mut want: BTreeSet<&str> = [p.platform].into();
        if p.editor.is_some() {
            want.insert("Editor: Editor");
        }
        assert_eq!(enabled, want, "{}: enabled platforms", p.path);

        let target = by_name[p.platform];
        assert_eq!(
            target.settings.get("CPU").map(String::as_str),
            Some(p.cpu),
            "{}: CPU of {}",
            p.path,
            p.platform
        );
        if let Some((os, cpu)) = p.editor {
            let editor = &by_name["Editor: Editor"].settings;
            assert_eq!(
                editor.get("OS").map(String::as_str),
                Some(os),
                "{}: editor OS",
                p.path
            );
            assert_eq!(
                editor.get("CPU").map(String::as_str),
                Some(cpu),
                "{}: editor CPU",
                p.path
            );
        }

        // "Any Platform" is off, and its excludes say the same as the per-platform switches.
        let any = by_name[": Any"];
        assert!(!any.enabled, "{}: Any Platform must be off", p.path);
        for (key, value) in &any.settings {
            let included = if key == "Exclude Editor" {
                p.editor.is_some()
            } else {
                key == p.exclude
            };
            assert_eq!(
                value,
                if included { "0" } else { "1" },
                "{}: {key} disagrees with the enabled platforms",
                p.path
            );
        }
        assert!(
            any.settings.contains_key(p.exclude),
            "{}: no {}",
            p.path,
            p.exclude
        );

        // Two plug-ins with one file name must never both load on a platform and CPU.
        let file = p.path.rsplit('/').next().unwrap().to_owned();
        let mut claim = |platform: String, cpu: String| {
            if let Some(other) =
                claims.insert((file.clone(), platform.clone(), cpu.clone()), p.path)
            {
                panic!(
                    "{} and {other} both load as {file} on {platform} {cpu}",
                    p.path
                );
            }
        };
        claim(p.platform.to_owned(), p.cpu.to_owned());
        if let Some((os, cpu)) = p.editor {
            claim(format!("Editor {os}"), cpu.to_owned());
        }
    }

    // The staging script copies builds to exactly these paths.
    let script = std::fs::read_to_string(repo().join("scripts/stage_unity.sh")).expect("script");
    let destinations: BTreeSet<&str> = script
        .lines()
        .filter(|l| l.contains(") echo \"Plugins/"))
        .map(|l| {
            let start = l.find("\"Plugins/").unwrap() + 1;
            let end = start + l[start..].find('"').unwrap();
            &l[start..end]
        })
        .collect();
    assert_eq!(
        destinations, expected,
        "scripts/stage_unity.sh destinations"
    );
}

// ---- package.json, asmdefs, script names -------------------------------------------------------

/// The string values of `"key": "value"` pairs in a JSON text (enough for these small files).
fn json_strings(text: &str, key: &str) -> Vec<String> {
    let pattern = format!("\"{key}\"");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find(&pattern) {
        rest = rest[i + pattern.len()..].trim_start();
        if let Some(after) = rest.strip_prefix(':') {
            let after = after.trim_start();
            if let Some(body) = after.strip_prefix('"') {
                let end = body.find('"').expect("closed string");
                out.push(body[..end].to_owned());
            }
        }
    }
    out
}

fn squash(text: &str) -> String {
    text.split_whitespace().collect()
}

#[test]
fn package_manifest_and_asmdefs() {
    let manifest = std::fs::read_to_string(package().join("package.json")).expect("package.json");
    // The first "name" is the package's (the author's comes later).
    assert_eq!(json_strings(&manifest, "name")[0], "com.sinew.animation");
    assert_eq!(json_strings(&manifest, "unity"), ["2021.3"]);
    assert_eq!(
        json_strings(&manifest, "version"),
        [env!("CARGO_PKG_VERSION")],
        "the package version follows the crate's"
    );
    assert!(!json_strings(&manifest, "description")[0].is_empty());
    let samples = json_strings(&manifest, "path");
    assert!(!samples.is_empty(), "package.json lists no samples");
    for s in &samples {
        assert!(
            s.starts_with("Samples~/"),
            "sample path {s} is not under Samples~/"
        );
        assert!(package().join(s).is_dir(), "sample path {s} does not exist");
    }

    let runtime = squash(
        &std::fs::read_to_string(package().join("Runtime/Sinew.Animation.asmdef")).expect("asmdef"),
    );
    assert!(
        runtime.contains("\"name\":\"Sinew.Animation\""),
        "{runtime}"
    );
    assert!(runtime.contains("\"allowUnsafeCode\":true"), "{runtime}");
    assert!(runtime.contains("\"references\":[]"), "{runtime}");
    assert!(
        runtime.contains("\"overrideReferences\":false"),
        "{runtime}"
    );
    assert!(
        runtime.contains("\"noEngineReferences\":false"),
        "{runtime}"
    );

    let sample_asmdef = squash(
        &std::fs::read_to_string(
            package().join("Samples~/IKPlayground/Sinew.Animation.Samples.asmdef"),
        )
        .expect("sample asmdef"),
    );
    assert!(sample_asmdef.contains("\"references\":[\"Sinew.Animation\"]"));

    // Unity attaches a MonoBehaviour only from a file named after its class.
    let mut behaviours = 0;
    for p in package_entries() {
        let is_cs = matches!(p.extension(), Some(e) if e == "cs");
        if !is_cs || rel(&p).starts_with("Runtime/Bindings/") {
            continue;
        }
        let text = std::fs::read_to_string(&p).expect("read .cs");
        let stem = p.file_stem().unwrap().to_string_lossy().into_owned();
        for line in text.lines() {
            let Some(i) = line.find("class ") else {
                continue;
            };
            let decl = &line[i + "class ".len()..];
            let Some((name, base)) = decl.split_once(" : ") else {
                continue;
            };
            let base = base.trim();
            if ["MonoBehaviour", "SinewChainIK"].contains(&base) && !line.contains("abstract") {
                assert_eq!(
                    name.trim(),
                    stem,
                    "{}: a MonoBehaviour in a file of another name",
                    rel(&p)
                );
                behaviours += 1;
            }
        }
    }
    assert!(behaviours >= 8, "found only {behaviours} MonoBehaviours");
}

// ---- compiling with mcs ------------------------------------------------------------------------

fn mcs() -> Option<String> {
    let mcs = std::env::var("MCS").unwrap_or_else(|_| "mcs".into());
    let found = Command::new(&mcs)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    found.then_some(mcs)
}

fn cs_files(dir: &Path, skip: &dyn Fn(&Path) -> bool) -> Vec<PathBuf> {
    let mut all = Vec::new();
    walk(dir, &mut all);
    all.retain(|p| p.extension().is_some_and(|e| e == "cs") && !skip(p));
    all
}

/// Runs one mcs compilation; panics with its output on failure, and on any warning located in
/// a file under one of `strict` (package sources and the shim).
fn compile(mcs: &str, what: &str, args: &[String], sources: &[PathBuf], strict: &[PathBuf]) {
    let mut cmd = Command::new(mcs);
    cmd.args(args).args(sources);
    let out = cmd.output().unwrap_or_else(|e| panic!("run {mcs}: {e}"));
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "{what}: mcs failed ({}):\n{text}",
        out.status
    );
    let ours: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(": warning CS"))
        .filter(|l| strict.iter().any(|s| l.contains(&*s.to_string_lossy())))
        .collect();
    assert!(
        ours.is_empty(),
        "{what}: warnings in the package or the shim:\n{}",
        ours.join("\n")
    );
    if text.contains("warning CS") {
        eprintln!("{what}: mcs warnings outside the package (not judged here):\n{text}");
    }
    eprintln!("{what}: compiled {} files", sources.len());
}

#[test]
#[cfg_attr(
    sinew_no_mono,
    ignore = "Mono (mcs, mono) was not found when sinew was built: apt-get install mono-mcs mono-runtime, or set MCS and MONO"
)]
fn unity_package_compiles_against_shim() {
    let mcs = mcs().expect("mcs runs (apt-get install mono-mcs mono-runtime, or set MCS)");

    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("unity_compile");
    std::fs::create_dir_all(&out).expect("create output dir");
    let shim_dir = repo().join("tests/unity-shim");
    let runtime_dir = package().join("Runtime");
    let samples_dir = package().join("Samples~");
    let bindings_dir = repo().join("bindings/csharp");
    let none = |_: &Path| false;

    let shim = cs_files(&shim_dir, &none);
    let mut runtime = cs_files(&runtime_dir, &|p: &Path| {
        // Staged copies of the bindings: the sources in bindings/csharp/ are compiled instead.
        p.starts_with(runtime_dir.join("Bindings"))
    });
    assert!(runtime.len() >= 9, "only {} runtime sources", runtime.len());
    let bindings = cs_files(&bindings_dir, &none);
    assert!(!bindings.is_empty(), "no bindings/csharp/*.cs");
    runtime.extend(bindings);
    let samples = cs_files(&samples_dir, &none);
    assert!(!samples.is_empty(), "no sample scripts");

    let engine = out.join("UnityEngine.dll");
    let arg = |s: &str| s.to_owned();
    let path_arg = |prefix: &str, p: &Path| format!("{prefix}{}", p.display());
    let strict = [package(), shim_dir.clone()];

    compile(
        &mcs,
        "shim (tests/unity-shim -> UnityEngine.dll)",
        &[
            arg("-unsafe"),
            arg("-warn:4"),
            arg("-target:library"),
            path_arg("-out:", &engine),
        ],
        &shim,
        &strict,
    );

    let runtime_dll = out.join("Sinew.Animation.dll");
    let editor_dll = out.join("Sinew.Animation.Editor.dll");
    let ios_dll = out.join("Sinew.Animation.iOS.dll");
    let variants: [(&str, &[&str], &Path); 3] = [
        ("runtime + bindings", &[], &runtime_dll),
        (
            "runtime + bindings (UNITY_EDITOR)",
            &["-define:UNITY_EDITOR"],
            &editor_dll,
        ),
        (
            "runtime + bindings (UNITY_IOS player: DllImport \"__Internal\")",
            &["-define:UNITY_IOS"],
            &ios_dll,
        ),
    ];
    for (what, defines, dll) in variants {
        let mut args = vec![
            arg("-unsafe"),
            arg("-define:UNITY_2021_3_OR_NEWER"),
            arg("-target:library"),
            arg("-warn:4"),
            path_arg("-out:", dll),
            path_arg("-r:", &engine),
        ];
        args.extend(defines.iter().map(|d| arg(d)));
        compile(&mcs, what, &args, &runtime, &strict);
    }

    // The import library name (a ModuleRef in the assembly's metadata): `__Internal` only in
    // the iOS player build, where the static library is linked into the executable.
    let mentions_internal = |dll: &Path| {
        let bytes = std::fs::read(dll).expect("read compiled dll");
        bytes
            .windows(b"__Internal".len())
            .any(|w| w == b"__Internal")
    };
    assert!(
        mentions_internal(&ios_dll),
        "the UNITY_IOS build does not import from __Internal"
    );
    assert!(
        !mentions_internal(&runtime_dll),
        "the default build imports from __Internal"
    );
    assert!(
        !mentions_internal(&editor_dll),
        "the editor build imports from __Internal"
    );

    compile(
        &mcs,
        "samples",
        &[
            arg("-define:UNITY_2021_3_OR_NEWER"),
            arg("-target:library"),
            arg("-warn:4"),
            path_arg("-out:", &out.join("Sinew.Animation.Samples.dll")),
            path_arg("-r:", &engine),
            path_arg("-r:", &runtime_dll),
        ],
        &samples,
        &strict,
    );
}
