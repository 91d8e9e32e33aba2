//! `toolscope share` on the real binary: the link it prints carries exactly the inputs given, the
//! page recomputes `toolscope report --json` byte for byte from it, links too long are refused,
//! and sealed files open only with the printed key.

use std::path::{Path, PathBuf};
use std::process::Output;

use assert_cmd::Command;
use toolscope_core::metrics::args_match::ArgsMode;
use toolscope_core::share::fragment::{self, SharedSource};
use toolscope_core::share::sealed::{self, ShareKey};
use toolscope_core::share::{data_link, ShareError, Shared, SharedFile};
use toolscope_core::{analyze, InputFile, Options, Role};

fn fixture(path: &str) -> String {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures");
    root.join(path).display().to_string()
}

fn toolscope() -> Command {
    Command::cargo_bin("toolscope").expect("the toolscope binary is built")
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("the link is text")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The seed's catalog, rules, traces and labels, with options other than the defaults, as
/// command-line arguments and as the files and options the link must carry.
struct SeedSet {
    args: Vec<String>,
    expected: Shared,
}

fn seed_set() -> SeedSet {
    let (tools, rules, sessions, labels) = (
        fixture("seed/tools.json"),
        fixture("seed/rules.json"),
        fixture("seed/selection_sessions.jsonl"),
        fixture("seed/selection_labels.jsonl"),
    );
    let args = [
        "--tools",
        &tools,
        "--rules",
        &rules,
        "--labels",
        &labels,
        "--min-support",
        "3",
        "--args-match",
        "subset",
        &sessions,
    ]
    .map(str::to_string)
    .to_vec();
    // In the order the engine is given them: catalogs, rules, traces, labels; each published by
    // its base name, not the path it was given by.
    let file = |path: &str, role| SharedFile {
        name: Path::new(path)
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned(),
        role: Some(role),
        bytes: std::fs::read(path).unwrap(),
    };
    let expected = Shared {
        files: vec![
            file(&tools, Role::Catalog),
            file(&rules, Role::Rules),
            file(&sessions, Role::Traces),
            file(&labels, Role::Labels),
        ],
        options: Options {
            min_support: 3,
            args_mode: ArgsMode::Subset,
            format: None,
        },
    };
    SeedSet { args, expected }
}

/// The one line `share` prints, and what its fragment says.
fn printed_source(output: &Output) -> (String, SharedSource) {
    assert_eq!(output.status.code(), Some(0), "{}", stderr(output));
    let printed = stdout(output);
    let link = printed.strip_suffix('\n').expect("one line");
    assert!(!link.contains('\n'), "{link}");
    let fragment = &link[link.find('#').expect("a fragment")..];
    let source = fragment::parse(fragment).expect("the fragment names the data");
    (link.to_string(), source)
}

fn decoded(source: &SharedSource) -> Shared {
    let SharedSource::Data(value) = source else {
        panic!("a data link, got {source:?}");
    };
    data_link::decode(value).unwrap()
}

#[test]
fn a_data_link_carries_the_files_names_roles_and_options_given() {
    let set = seed_set();
    let output = toolscope().arg("share").args(&set.args).output().unwrap();
    let (link, source) = printed_source(&output);
    assert!(link.starts_with("#data=1."), "{link}");
    assert_eq!(decoded(&source), set.expected);
    let said = stderr(&output);
    assert!(said.contains("characters"), "{said}");
    assert!(said.contains("fits anywhere"), "{said}");
    assert!(
        said.contains("append it to the address of a toolscope page"),
        "{said}"
    );
}

#[test]
fn the_page_recomputes_report_json_byte_for_byte_from_a_data_link() {
    let set = seed_set();
    let output = toolscope().arg("share").args(&set.args).output().unwrap();
    let shared = decoded(&printed_source(&output).1);

    // What the page does with the link.
    let files: Vec<InputFile<'_>> = shared
        .files
        .iter()
        .map(|file| InputFile::new(&file.name, &file.bytes, file.role.unwrap()))
        .collect();
    let mut from_link = Vec::new();
    analyze(&files, &shared.options)
        .write_json(&mut from_link)
        .unwrap();

    // The link names the files by their base names: the same report is the one made from
    // beside them.
    let beside: Vec<String> = set
        .args
        .iter()
        .map(|arg| match arg.strip_prefix(&fixture("seed/")) {
            Some(base) => base.to_string(),
            None => arg.clone(),
        })
        .collect();
    let report = toolscope()
        .current_dir(fixture("seed"))
        .args(["report", "--json"])
        .args(&beside)
        .output()
        .unwrap();
    assert_eq!(
        report.status.code(),
        Some(1),
        "the seed's calls have problems"
    );
    assert!(
        from_link == report.stdout,
        "the report from the link differs from `toolscope report --json`"
    );
}

#[test]
fn a_link_and_a_sealed_file_carry_base_names_not_the_authors_paths() {
    let given = fixture("seed/calls.json");
    let output = toolscope().arg("share").arg(&given).output().unwrap();
    let shared = decoded(&printed_source(&output).1);
    assert_eq!(shared.files[0].name, "calls.json");
    let kept = toolscope()
        .args(["share", "--publish-paths"])
        .arg(&given)
        .output()
        .unwrap();
    assert_eq!(decoded(&printed_source(&kept).1).files[0].name, given);
}

#[test]
fn page_prefixes_the_link_with_the_pages_address() {
    let output = toolscope()
        .args(["share", "--page", "https://x.example/tool/"])
        .arg(fixture("seed/calls.json"))
        .output()
        .unwrap();
    let (link, source) = printed_source(&output);
    assert!(
        link.starts_with("https://x.example/tool/#data=1."),
        "{link}"
    );
    assert_eq!(decoded(&source).files[0].name, "calls.json");
    assert!(!stderr(&output).contains("append it"));
}

/// `lines` lines of 64 pseudo-random hexadecimal digits: text deflate cannot shrink below half.
fn random_hex(path: &Path, lines: usize) {
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut text = String::with_capacity(lines * 65);
    for _ in 0..lines {
        for _ in 0..4 {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            text.push_str(&format!(
                "{:016x}",
                state.wrapping_mul(0x2545_f491_4f6c_dd1d)
            ));
        }
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_link_past_a_chat_messages_length_says_where_it_still_fits() {
    let dir = tempfile::tempdir().unwrap();
    let traces = dir.path().join("traces.jsonl");
    random_hex(&traces, 150);
    let output = toolscope().arg("share").arg(&traces).output().unwrap();
    let (link, _) = printed_source(&output);
    assert!(link.len() > 4_000 && link.len() <= 60_000, "{}", link.len());
    assert!(
        stderr(&output).contains("fits a PR comment"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn inputs_too_large_for_a_link_are_refused_with_the_alternatives_and_no_link() {
    let dir = tempfile::tempdir().unwrap();
    // Compressed past the limit, and too large to be compressed at all.
    for lines in [2_000, 800_000] {
        let traces = dir.path().join(format!("traces-{lines}.jsonl"));
        random_hex(&traces, lines);
        let output = toolscope().arg("share").arg(&traces).output().unwrap();
        assert_eq!(output.status.code(), Some(2), "{lines} lines");
        assert!(output.stdout.is_empty(), "no link is printed");
        let said = stderr(&output);
        for expected in ["60,000", "--encrypt --out FILE", "toolscope bundle"] {
            assert!(said.contains(expected), "{expected} in {said}");
        }
    }
}

/// The sealed file, and the link printed for it.
struct Sealed {
    _dir: tempfile::TempDir,
    file: Vec<u8>,
    link: String,
    source: SharedSource,
    said: String,
}

fn share_encrypted(set: &SeedSet, extra: &[&str]) -> Sealed {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.tsenc");
    let output = toolscope()
        .args(["share", "--encrypt", "--out"])
        .arg(&out)
        .args(extra)
        .args(&set.args)
        .output()
        .unwrap();
    let (link, source) = printed_source(&output);
    Sealed {
        file: std::fs::read(&out).unwrap(),
        _dir: dir,
        link,
        source,
        said: stderr(&output),
    }
}

fn key_of(source: &SharedSource) -> (String, String) {
    let SharedSource::Hosted { sources, key } = source else {
        panic!("a hosted link, got {source:?}");
    };
    assert_eq!(sources.len(), 1);
    (sources[0].url.clone(), key.clone().expect("a key"))
}

#[test]
fn a_sealed_file_opens_with_the_printed_key_to_the_same_inputs() {
    let set = seed_set();
    let sealed = share_encrypted(&set, &[]);
    assert!(
        sealed.link.starts_with("#src=WHERE-YOU-HOST-IT&key="),
        "{}",
        sealed.link
    );
    let (url, key) = key_of(&sealed.source);
    assert_eq!(url, "WHERE-YOU-HOST-IT");
    let key = ShareKey::parse(&key).unwrap();
    assert_eq!(sealed::open(&sealed.file, &key).unwrap(), set.expected);
    for note in [
        "cannot read the file",
        "anyone with the full link",
        "revokes every link",
        "printed only here",
        "WHERE-YOU-HOST-IT",
    ] {
        assert!(sealed.said.contains(note), "{note} in {}", sealed.said);
    }
}

#[test]
fn the_key_is_nowhere_in_the_sealed_file_or_on_stderr() {
    let sealed = share_encrypted(&seed_set(), &[]);
    let (_, key) = key_of(&sealed.source);
    let file_text = String::from_utf8_lossy(&sealed.file);
    assert!(!file_text.contains(&key));
    assert!(!sealed.said.contains(&key));
}

#[test]
fn a_wrong_key_or_one_flipped_byte_cannot_decrypt() {
    let sealed = share_encrypted(&seed_set(), &[]);
    let (_, key) = key_of(&sealed.source);
    let key = ShareKey::parse(&key).unwrap();
    let other_key = ShareKey::from_bytes([7; 32]);
    assert_eq!(
        sealed::open(&sealed.file, &other_key),
        Err(ShareError::CannotDecrypt)
    );
    for index in [sealed.file.len() / 2, sealed.file.len() - 1] {
        let mut damaged = sealed.file.clone();
        damaged[index] ^= 0x01;
        assert_eq!(
            sealed::open(&damaged, &key),
            Err(ShareError::CannotDecrypt),
            "byte {index}"
        );
    }
}

#[test]
fn each_sealed_file_gets_a_fresh_key() {
    let set = seed_set();
    let first = share_encrypted(&set, &[]);
    let second = share_encrypted(&set, &[]);
    assert_ne!(key_of(&first.source).1, key_of(&second.source).1);
    assert_ne!(first.file, second.file);
}

#[test]
fn a_sealed_link_names_the_hosted_address_after_the_page() {
    let sealed = share_encrypted(
        &seed_set(),
        &[
            "--page",
            "https://x.example/tool/",
            "--url",
            "https://h.example/runs/f.tsenc",
        ],
    );
    assert!(
        sealed.link.starts_with("https://x.example/tool/#src="),
        "{}",
        sealed.link
    );
    assert_eq!(key_of(&sealed.source).0, "https://h.example/runs/f.tsenc");
    assert!(!sealed.said.contains("WHERE-YOU-HOST-IT"));
}

#[test]
fn encrypt_needs_out_and_refuses_an_address_the_page_would_not_fetch() {
    let calls = fixture("seed/calls.json");
    let output = toolscope()
        .args(["share", "--encrypt", &calls])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--out"), "{}", stderr(&output));

    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("f.tsenc");
    let output = toolscope()
        .args([
            "share",
            "--encrypt",
            "--url",
            "http://h.example/f.tsenc",
            "--out",
        ])
        .arg(&out)
        .arg(&calls)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not https"), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert!(
        !out.exists(),
        "nothing is sealed for a link that cannot work"
    );
}
