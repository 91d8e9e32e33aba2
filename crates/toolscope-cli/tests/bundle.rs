//! `toolscope bundle` on the real binary, with a stand-in for the page's built files: the folder
//! holds the page, the inputs byte for byte, a manifest that opens them and an index.html that
//! points at it; what cannot make a working folder is refused with exit code 2.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::share::{digest, manifest};
use toolscope_core::Role;

const PAGE_INDEX: &str =
    "<!DOCTYPE html>\n<html>\n<head>\n<title>toolscope</title>\n</head>\n<body></body>\n</html>\n";

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn toolscope() -> Command {
    let mut command = Command::cargo_bin("toolscope").expect("the toolscope binary is built");
    command.env_remove("TOOLSCOPE_PAGE_DIR");
    command
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A folder shaped like `scripts/build-site`'s dist/: index.html, a .wasm, a script, a nested
/// folder and the demo data.
fn fake_page(root: &Path) -> PathBuf {
    let page = root.join("dist");
    std::fs::create_dir_all(page.join("demo")).unwrap();
    std::fs::create_dir_all(page.join("snippets/worker")).unwrap();
    std::fs::write(page.join("index.html"), PAGE_INDEX).unwrap();
    std::fs::write(page.join("x.wasm"), b"").unwrap();
    std::fs::write(page.join("x.js"), b"// the page\n").unwrap();
    std::fs::write(page.join("snippets/worker/inline.js"), b"// nested\n").unwrap();
    std::fs::write(page.join("demo/sessions.jsonl"), b"{}\n").unwrap();
    page
}

#[test]
fn a_bundle_holds_the_page_the_inputs_and_a_manifest_that_opens_them() {
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    let out = dir.path().join("site/runs/7");
    let (tools, rules, sessions, labels) = (
        fixture("seed/tools.json"),
        fixture("seed/rules.json"),
        fixture("seed/selection_sessions.jsonl"),
        fixture("seed/selection_labels.jsonl"),
    );
    let output = toolscope()
        .args(["bundle", "--out"])
        .arg(&out)
        .arg("--page-dir")
        .arg(&page)
        .args([
            "--title",
            "nightly",
            "--base-url",
            "https://me.example/site/runs/7",
        ])
        .args(["--tools", &tools, "--rules", &rules, "--labels", &labels])
        .args(["--min-support", "2", "--args-match", "subset", &sessions])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(
        String::from_utf8(output.stdout.clone()).unwrap(),
        "https://me.example/site/runs/7/\n"
    );
    assert!(stderr(&output).contains("toolscope-manifest.json"));

    // The page, but not its demo data.
    for copied in ["x.wasm", "x.js", "snippets/worker/inline.js"] {
        assert_eq!(
            std::fs::read(out.join(copied)).unwrap(),
            std::fs::read(page.join(copied)).unwrap(),
            "{copied}"
        );
    }
    assert!(!out.join("demo").exists());

    // The inputs byte for byte, listed in the manifest in the engine's order.
    let manifest_bytes = std::fs::read(out.join("data/toolscope-manifest.json")).unwrap();
    let manifest = manifest::parse(&manifest_bytes).unwrap();
    assert_eq!(manifest.toolscope_manifest, 1);
    assert_eq!(manifest.title.as_deref(), Some("nightly"));
    let options = manifest.options.unwrap();
    assert_eq!(
        (options.min_support, options.args_mode),
        (2, ArgsMode::Subset)
    );
    let expected = [
        (&tools, "tools.json", Role::Catalog),
        (&rules, "rules.json", Role::Rules),
        (&sessions, "selection_sessions.jsonl", Role::Traces),
        (&labels, "selection_labels.jsonl", Role::Labels),
    ];
    assert_eq!(manifest.files.len(), expected.len());
    for (file, (given, path, role)) in manifest.files.iter().zip(expected) {
        let bytes = std::fs::read(given).unwrap();
        assert_eq!(file.path, path);
        // Published by its base name: the author's folders stay on their machine.
        assert_eq!(file.name.as_deref(), Some(path));
        assert!(!String::from_utf8_lossy(&manifest_bytes).contains(env!("CARGO_MANIFEST_DIR")));
        assert_eq!(file.role, Some(role));
        assert_eq!(file.sha256, Some(digest::sha256_hex(&bytes)));
        assert_eq!(file.size, Some(bytes.len() as u64));
        assert_eq!(std::fs::read(out.join("data").join(path)).unwrap(), bytes);
    }

    // index.html: the page's, pointing at the manifest and asking not to be indexed.
    let index = std::fs::read_to_string(out.join("index.html")).unwrap();
    let meta_tags = "<meta name=\"toolscope-manifest\" content=\"data/toolscope-manifest.json\">\n\
                     <meta name=\"robots\" content=\"noindex, nofollow\">\n";
    assert_eq!(
        index,
        PAGE_INDEX.replace("</head>", &format!("{meta_tags}</head>"))
    );

    let robots = std::fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(robots.contains("User-agent: *\nDisallow: /\n"), "{robots}");
}

#[test]
fn inputs_with_the_same_base_name_are_both_kept() {
    let dir = tempfile::tempdir().unwrap();
    fake_page(dir.path());
    for (folder, text) in [
        ("a", "{\"session_id\": \"a\"}\n"),
        ("b", "{\"session_id\": \"b\"}\n"),
    ] {
        std::fs::create_dir_all(dir.path().join(folder)).unwrap();
        std::fs::write(dir.path().join(folder).join("x.jsonl"), text).unwrap();
    }
    let out = dir.path().join("out");
    let output = toolscope()
        .current_dir(dir.path())
        .args([
            "bundle",
            "--out",
            "out",
            "--page-dir",
            "dist",
            "a/x.jsonl",
            "b/x.jsonl",
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let manifest =
        manifest::parse(&std::fs::read(out.join("data/toolscope-manifest.json")).unwrap()).unwrap();
    let listed: Vec<(&str, &str)> = manifest
        .files
        .iter()
        .map(|file| (file.path.as_str(), file.shown_name()))
        .collect();
    // Published by base name, made unique as the data files are.
    assert_eq!(listed, [("x.jsonl", "x.jsonl"), ("x-2.jsonl", "x-2.jsonl")]);
    assert_eq!(
        std::fs::read(out.join("data/x-2.jsonl")).unwrap(),
        std::fs::read(dir.path().join("b/x.jsonl")).unwrap()
    );
}

#[test]
fn the_page_dir_can_come_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    let out = dir.path().join("out");
    let output = toolscope()
        .env("TOOLSCOPE_PAGE_DIR", &page)
        .args(["bundle", "--out"])
        .arg(&out)
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty(), "no --base-url, no link");
    assert!(out.join("x.wasm").exists());
}

#[test]
fn without_the_pages_files_it_says_how_to_build_them() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let hint = "run scripts/build-site (it writes dist/) and pass --page-dir dist";
    let output = toolscope()
        .args(["bundle", "--out"])
        .arg(&out)
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains(hint), "{}", stderr(&output));
    assert!(!out.exists());

    // A folder that is not the page's built files: none, no index.html, no .wasm.
    let no_wasm = dir.path().join("no-wasm");
    std::fs::create_dir_all(&no_wasm).unwrap();
    std::fs::write(no_wasm.join("index.html"), PAGE_INDEX).unwrap();
    for (page_dir, expected) in [
        (dir.path().join("missing"), "no such folder"),
        (dir.path().to_path_buf(), "no index.html"),
        (no_wasm, "no .wasm file"),
    ] {
        let output = toolscope()
            .args(["bundle", "--out"])
            .arg(&out)
            .arg("--page-dir")
            .arg(&page_dir)
            .arg(fixture("seed/calls.json"))
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let said = stderr(&output);
        assert!(said.contains(expected) && said.contains(hint), "{said}");
    }
    assert!(!out.exists());
}

#[test]
fn a_page_without_a_head_end_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    std::fs::write(page.join("index.html"), "<html><body></body></html>").unwrap();
    let output = toolscope()
        .args(["bundle", "--out"])
        .arg(dir.path().join("out"))
        .arg("--page-dir")
        .arg(&page)
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("</head>"), "{}", stderr(&output));
}

#[test]
fn a_folder_that_is_not_empty_is_written_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("keep.txt"), "mine").unwrap();
    let bundle = |force: bool| {
        let mut command = toolscope();
        command
            .args(["bundle", "--out"])
            .arg(&out)
            .arg("--page-dir")
            .arg(&page);
        if force {
            command.arg("--force");
        }
        command.arg(fixture("seed/calls.json")).output().unwrap()
    };

    let output = bundle(false);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--force"), "{}", stderr(&output));
    assert!(!out.join("index.html").exists(), "nothing written");

    let output = bundle(true);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(out.join("data/calls.json").exists());
    assert_eq!(
        std::fs::read_to_string(out.join("keep.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn a_bundle_inside_the_pages_folder_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    let output = toolscope()
        .args(["bundle", "--out"])
        .arg(page.join("runs/1"))
        .arg("--page-dir")
        .arg(&page)
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("inside the page's folder"));
    assert!(!page.join("runs").exists());
}

#[cfg(unix)]
#[test]
fn bundle_force_never_writes_through_links_planted_in_the_folder() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let page = fake_page(dir.path());
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let victim = dir.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    let bundle = |out: &Path| {
        toolscope()
            .args(["bundle", "--force", "--out"])
            .arg(out)
            .arg("--page-dir")
            .arg(&page)
            .arg(fixture("seed/calls.json"))
            .output()
            .unwrap()
    };

    // A `data` link to another folder: refused, naming it, and nothing written there.
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    symlink(&elsewhere, out.join("data")).unwrap();
    let output = bundle(&out);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("symbolic link"),
        "{}",
        stderr(&output)
    );
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);

    // File links where the page's files, index.html and a data file go: replaced, not followed.
    let out = dir.path().join("out2");
    std::fs::create_dir_all(out.join("data")).unwrap();
    for planted in ["index.html", "x.js", "robots.txt", "data/calls.json"] {
        symlink(&victim, out.join(planted)).unwrap();
    }
    symlink(&elsewhere, out.join("snippets")).unwrap();
    let output = bundle(&out);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    assert!(stderr(&output).contains("snippets"), "{}", stderr(&output));
    std::fs::remove_file(out.join("snippets")).unwrap();
    let output = bundle(&out);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    for planted in ["index.html", "x.js", "robots.txt", "data/calls.json"] {
        let metadata = std::fs::symlink_metadata(out.join(planted)).unwrap();
        assert!(
            !metadata.file_type().is_symlink(),
            "{planted} is still a link"
        );
    }
    assert_eq!(
        std::fs::read(out.join("data/calls.json")).unwrap(),
        std::fs::read(fixture("seed/calls.json")).unwrap()
    );
}
