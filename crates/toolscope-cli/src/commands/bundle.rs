//! `toolscope bundle`: a folder any static host can serve that opens the report by itself: the
//! page's built files, the inputs under `data/` with a manifest naming their roles and digests,
//! and an `index.html` whose meta tag points the page at the manifest (docs/share.md).
//!
//! ```text
//! DIR/index.html                    the page's, with the manifest and noindex meta tags
//! DIR/*.js, *.wasm, *.css, ...      the rest of the page (not demo/)
//! DIR/data/<file>                   each input, byte for byte
//! DIR/data/toolscope-manifest.json  names, roles, SHA-256s, sizes, options
//! DIR/robots.txt                    asks crawlers to stay out
//! ```

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use toolscope_core::share::fragment::role_name;
use toolscope_core::share::manifest::{self, Manifest, ManifestFile};
use toolscope_core::share::{digest, MAX_HOSTED_BYTES};

use crate::cli::BundleArgs;
use crate::inputs::{made_unique, read_inputs, LoadedFile};
use crate::output::files::{real_folder, write_replacing};
use crate::output::terminal;
use crate::Outcome;
use toolscope_core::diagnostic::grouped;

const PAGE_FILES_HINT: &str = "toolscope bundle needs the page's built files: run \
                               scripts/build-site (it writes dist/) and pass --page-dir dist";

/// Where the inputs and the manifest go, relative to the folder.
const DATA_DIR: &str = "data";

/// The page's folder of demo data, used only by its demo button: not part of a report.
const DEMO_DIR: &str = "demo";

/// What goes before the page's `</head>`: where the manifest is, relative to the page's own URL
/// (so the folder works under any path), and a request to search engines to leave it out.
const META_TAGS: &str =
    "<meta name=\"toolscope-manifest\" content=\"data/toolscope-manifest.json\">\n\
                         <meta name=\"robots\" content=\"noindex, nofollow\">\n";

const ROBOTS_TXT: &str =
    "# A toolscope report of someone's agent traces: crawlers are asked to stay out.\n\
                          User-agent: *\n\
                          Disallow: /\n";

pub fn run(args: &BundleArgs) -> Result<Outcome> {
    let page_dir = args
        .page_dir
        .as_deref()
        .ok_or_else(|| anyhow!(PAGE_FILES_HINT))?;
    let page_index = read_page_index(page_dir)?;
    let index_html = with_meta_tags(&page_index)
        .with_context(|| format!("{}", page_dir.join("index.html").display()))?;

    let mut inputs = read_inputs(&args.inputs, Some(&args.metrics))?;
    inputs.ensure_all_read()?;
    inputs.publish(args.publish_paths);
    for file in &inputs.files {
        if file.bytes.len() as u64 > MAX_HOSTED_BYTES {
            bail!(
                "{}: {} bytes, more than the {} MiB the page downloads for one hosted file",
                file.name,
                grouped(file.bytes.len() as u64),
                MAX_HOSTED_BYTES >> 20
            );
        }
    }

    let out = &args.out;
    prepare_out_dir(out, page_dir, args.force)?;
    let page_copy = copy_page(page_dir, out)?;
    let mut written = vec![format!(
        "{}: {} of the page from {}{}",
        out.display(),
        if page_copy.files == 1 {
            "1 file".to_string()
        } else {
            format!("{} files", page_copy.files)
        },
        page_dir.display(),
        if page_copy.has_left_out_demo {
            format!(" (not its {DEMO_DIR}/ data)")
        } else {
            String::new()
        }
    )];
    let index_path = out.join("index.html");
    write_replacing(&index_path, index_html.as_bytes())?;
    written.push(format!(
        "{}: the page's, pointed at the manifest",
        index_path.display()
    ));

    let data_dir = out.join(DATA_DIR);
    real_folder(&data_dir)?;
    let mut manifest_files = Vec::new();
    for (file, data_name) in inputs.files.iter().zip(data_file_names(&inputs.files)) {
        let path = data_dir.join(&data_name);
        write_replacing(&path, &file.bytes)?;
        written.push(format!(
            "{}: {} ({}, {} bytes)",
            path.display(),
            file.name,
            role_name(file.role),
            grouped(file.bytes.len() as u64)
        ));
        manifest_files.push(ManifestFile {
            path: data_name,
            name: Some(file.name.clone()),
            role: Some(file.role),
            sha256: Some(digest::sha256_hex(&file.bytes)),
            size: Some(file.bytes.len() as u64),
        });
    }
    let manifest = Manifest {
        toolscope_manifest: manifest::VERSION,
        title: args.title.clone(),
        files: manifest_files,
        options: Some(inputs.options),
    };
    let manifest_path = data_dir.join(manifest::FILE_NAME);
    write_replacing(&manifest_path, manifest::to_json(&manifest).as_bytes())?;
    written.push(format!("{}", manifest_path.display()));
    let robots_path = out.join("robots.txt");
    write_replacing(&robots_path, ROBOTS_TXT.as_bytes())?;
    written.push(format!("{}", robots_path.display()));

    let mut err = terminal::stderr();
    err.line("wrote:")?;
    for line in &written {
        err.line(format_args!("  {line}"))?;
    }
    err.line(format_args!(
        "serve {} from any static host, under any path: it opens the report by itself",
        out.display()
    ))?;
    err.flush()?;
    if let Some(base_url) = &args.base_url {
        let mut stdout = terminal::stdout();
        stdout.line(format_args!("{}/", base_url.trim_end_matches('/')))?;
        stdout.flush()?;
    }
    Ok(Outcome::Clean)
}

/// The page's `index.html`, once the folder looks like the page's built files.
fn read_page_index(page_dir: &Path) -> Result<String> {
    let shown = page_dir.display();
    if !page_dir.is_dir() {
        bail!("{shown}: no such folder; {PAGE_FILES_HINT}");
    }
    let index = page_dir.join("index.html");
    if !index.is_file() {
        bail!("{shown} has no index.html, so it is not the page's built files; {PAGE_FILES_HINT}");
    }
    let has_wasm = fs::read_dir(page_dir)
        .with_context(|| format!("reading {shown}"))?
        .filter_map(|entry| entry.ok())
        .any(|entry| entry.path().extension().is_some_and(|ext| ext == "wasm"));
    if !has_wasm {
        bail!("{shown} has no .wasm file, so it is not the page's built files; {PAGE_FILES_HINT}");
    }
    if page_dir.join(DATA_DIR).exists() {
        bail!("{shown} has a {DATA_DIR}/ folder, where the bundle puts the inputs; give the page's built files alone");
    }
    fs::read_to_string(&index).with_context(|| format!("reading {}", index.display()))
}

/// The page's `index.html` with [`META_TAGS`] right before `</head>`.
fn with_meta_tags(html: &str) -> Result<String> {
    // ASCII lowercase keeps every byte where it is, so the offset is the original's.
    let head_end = html
        .to_ascii_lowercase()
        .find("</head>")
        .ok_or_else(|| anyhow!("no </head> to put the manifest's meta tag before"))?;
    Ok(format!(
        "{}{META_TAGS}{}",
        &html[..head_end],
        &html[head_end..]
    ))
}

/// Checks `out` is not inside the page's folder (copying the page into itself would never
/// end), then creates it, or checks it is empty (unless `force`).
fn prepare_out_dir(out: &Path, page_dir: &Path, force: bool) -> Result<()> {
    let shown = out.display();
    let page_real = page_dir
        .canonicalize()
        .with_context(|| format!("reading {}", page_dir.display()))?;
    if resolved(out)?.starts_with(&page_real) {
        bail!(
            "{shown} is inside the page's folder {}; write the bundle somewhere else",
            page_dir.display()
        );
    }
    if out.exists() {
        let is_empty = fs::read_dir(out)
            .with_context(|| format!("reading {shown}"))?
            .next()
            .is_none();
        if !is_empty && !force {
            bail!(
                "{shown} is not empty; give a new or empty folder, or --force to replace the \
                 files the bundle writes there (and leave the others)"
            );
        }
    } else {
        real_folder(out)?;
    }
    Ok(())
}

/// `path` made absolute with its links resolved, as far as it exists (the rest as written).
fn resolved(path: &Path) -> Result<PathBuf> {
    let absolute =
        std::path::absolute(path).with_context(|| format!("reading {}", path.display()))?;
    for existing in absolute.ancestors() {
        if let Ok(real) = existing.canonicalize() {
            let rest = absolute.strip_prefix(existing).unwrap_or(Path::new(""));
            return Ok(real.join(rest));
        }
    }
    Ok(absolute)
}

/// What [`copy_page`] did.
struct PageCopy {
    files: usize,
    has_left_out_demo: bool,
}

/// Copies the page's files into `out`, folders included, but its demo data and the files the
/// bundle writes itself.
fn copy_page(page_dir: &Path, out: &Path) -> Result<PageCopy> {
    let written_here = ["index.html", "robots.txt"];
    let mut copy = PageCopy {
        files: 0,
        has_left_out_demo: false,
    };
    for entry in read_dir_sorted(page_dir)? {
        let name = entry.file_name().unwrap_or_default();
        if name == DEMO_DIR {
            copy.has_left_out_demo = true;
        } else if !written_here.iter().any(|skipped| name == *skipped) {
            copy.files += copy_entry(&entry, &out.join(name))?;
        }
    }
    Ok(copy)
}

/// Copies a file or a folder of the page; what stands at `to` already is replaced, a link there
/// is never followed (a folder that is a link is refused).
fn copy_entry(from: &Path, to: &Path) -> Result<usize> {
    if from.is_dir() {
        real_folder(to)?;
        let mut copied = 0;
        for entry in read_dir_sorted(from)? {
            copied += copy_entry(&entry, &to.join(entry.file_name().unwrap_or_default()))?;
        }
        Ok(copied)
    } else {
        let bytes = fs::read(from).with_context(|| format!("reading {}", from.display()))?;
        write_replacing(to, &bytes)?;
        Ok(1)
    }
}

fn read_dir_sorted(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut paths = fs::read_dir(dir)
        .with_context(|| format!("reading {}", dir.display()))?
        .map(|entry| entry.map(|entry| entry.path()))
        .collect::<std::io::Result<Vec<_>>>()
        .with_context(|| format!("reading {}", dir.display()))?;
    paths.sort();
    Ok(paths)
}

/// The name each input gets in `data/`: its base name, kept to characters every host serves as
/// written and every URL carries unescaped (letters, digits, `.`, `-`, `_`), made unique (`x.jsonl`,
/// `x-2.jsonl`, compared without case for hosts that ignore it) and never the manifest's.
fn data_file_names(files: &[LoadedFile]) -> Vec<String> {
    let mut taken = BTreeSet::from([manifest::FILE_NAME.to_ascii_lowercase()]);
    files
        .iter()
        .map(|file| {
            let base = file
                .path
                .as_deref()
                .and_then(Path::file_name)
                .map(|name| url_safe(&name.to_string_lossy()))
                .unwrap_or_else(|| "stdin".to_string());
            made_unique(base, &mut taken, str::to_ascii_lowercase)
        })
        .collect()
}

/// `name` with every character but ASCII letters, digits, `.`, `-` and `_` made `_`, and no
/// leading `.` or `_` (hosts hide such files: dotfiles, Jekyll's `_` folders).
fn url_safe(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let trimmed = safe.trim_start_matches(['.', '_']);
    let lost_stem = safe[..safe.len() - trimmed.len()].contains('.');
    if trimmed.is_empty() {
        "input".to_string()
    } else if lost_stem {
        // `отчёт.jsonl` and `.hidden.json` keep their extensions behind a stem.
        format!("input.{trimmed}")
    } else {
        trimmed.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolscope_core::Role;

    fn loaded(path: &str) -> LoadedFile {
        LoadedFile {
            path: (path != "-").then(|| PathBuf::from(path)),
            name: path.to_string(),
            role: Role::Traces,
            bytes: Vec::new(),
            too_large: None,
        }
    }

    #[test]
    fn inputs_with_the_same_base_name_each_get_their_own_file() {
        let files = [
            loaded("a/x.jsonl"),
            loaded("b/x.jsonl"),
            loaded("c/X.jsonl"),
            loaded("y"),
            loaded("z/y"),
            loaded("runs/toolscope-manifest.json"),
            loaded("-"),
        ];
        assert_eq!(
            data_file_names(&files),
            [
                "x.jsonl",
                "x-2.jsonl",
                "X-3.jsonl",
                "y",
                "y-2",
                "toolscope-manifest-2.json",
                "stdin"
            ]
        );
    }

    #[test]
    fn data_file_names_are_safe_in_a_url_and_not_hidden() {
        assert_eq!(url_safe("a b#c?.jsonl"), "a_b_c_.jsonl");
        assert_eq!(url_safe(".hidden.json"), "input.hidden.json");
        assert_eq!(url_safe("_config.yml"), "config.yml");
        assert_eq!(url_safe("отчёт.jsonl"), "input.jsonl");
        assert_eq!(url_safe("..."), "input");
    }

    #[test]
    fn the_meta_tags_go_right_before_the_end_of_head() {
        let html = "<html><head><title>t</title></HEAD><body></body></html>";
        let with = with_meta_tags(html).unwrap();
        assert_eq!(
            with,
            format!("<html><head><title>t</title>{META_TAGS}</HEAD><body></body></html>")
        );
        assert!(with_meta_tags("<html><body></body></html>").is_err());
    }
}
