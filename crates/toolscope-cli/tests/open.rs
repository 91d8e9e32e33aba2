//! `toolscope open` on the real binary, against links and files `share` and `bundle` make and a
//! real local HTTP server: every way of sharing opens to the report `report --json` gives for the
//! same files; what does not check out (a digest, a key, a download) is an error naming it, exit
//! 2, with the rest still reported; the link, which can carry a key, is never printed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::sync::{Arc, Mutex};
use std::thread;

use assert_cmd::Command;

fn seed_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/seed")
}

/// The seed's files with options other than the defaults, named as `share` publishes them (run
/// from the seed folder, so `report` names them alike).
const ARGS: [&str; 9] = [
    "--tools",
    "tools.json",
    "--rules",
    "rules.json",
    "--labels",
    "selection_labels.jsonl",
    "--min-support",
    "3",
    "selection_sessions.jsonl",
];

fn toolscope() -> Command {
    let mut command = Command::cargo_bin("toolscope").expect("the toolscope binary is built");
    command
        .current_dir(seed_dir())
        .env_remove("TOOLSCOPE_SHARE_KEY")
        .env_remove("TOOLSCOPE_PAGE_DIR");
    command
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).unwrap()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `report --json` of the seed set: what every opened share must print.
fn expected_report() -> String {
    let output = toolscope()
        .args(["report", "--json"])
        .args(ARGS)
        .output()
        .unwrap();
    assert!(
        output.status.code().is_some_and(|code| code < 2),
        "{}",
        stderr(&output)
    );
    stdout(&output)
}

fn open(args: &[&str]) -> Output {
    toolscope().arg("open").args(args).output().unwrap()
}

/// The link `share` prints for the seed set, with `extra` arguments.
fn share(extra: &[&str]) -> String {
    let output = toolscope()
        .arg("share")
        .args(extra)
        .args(ARGS)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    stdout(&output).trim_end().to_string()
}

/// A static HTTP server on this machine serving `files` by path, counting requests.
struct Host {
    origin: String,
    files: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    requests: Arc<Mutex<Vec<String>>>,
}

impl Host {
    fn start() -> Host {
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let origin = format!("http://{}", server.server_addr().to_ip().unwrap());
        let files: Arc<Mutex<HashMap<String, Vec<u8>>>> = Arc::default();
        let requests: Arc<Mutex<Vec<String>>> = Arc::default();
        let (served, asked) = (files.clone(), requests.clone());
        thread::spawn(move || {
            for request in server.incoming_requests() {
                let path = request.url().to_string();
                let headers: Vec<String> = request
                    .headers()
                    .iter()
                    .map(|header| header.field.as_str().as_str().to_ascii_lowercase())
                    .collect();
                asked
                    .lock()
                    .unwrap()
                    .push(format!("{path} {}", headers.join(",")));
                if let Some(target) = path.strip_prefix("/moved/") {
                    let location = format!("https://127.0.0.1/{target}");
                    let header = tiny_http::Header::from_bytes("Location", location).unwrap();
                    let _ = request.respond(tiny_http::Response::empty(302).with_header(header));
                    continue;
                }
                let body = served.lock().unwrap().get(&path).cloned();
                let _ = match body {
                    Some(body) => request.respond(tiny_http::Response::from_data(body)),
                    None => request.respond(tiny_http::Response::empty(404)),
                };
            }
        });
        Host {
            origin,
            files,
            requests,
        }
    }

    fn put(&self, path: &str, bytes: Vec<u8>) {
        self.files.lock().unwrap().insert(path.to_string(), bytes);
    }

    /// Every file of `dir` under `prefix`.
    fn put_folder(&self, dir: &Path, prefix: &str) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().to_string_lossy().into_owned();
            if entry.file_type().unwrap().is_dir() {
                self.put_folder(&entry.path(), &format!("{prefix}{name}/"));
            } else {
                self.put(
                    &format!("{prefix}{name}"),
                    std::fs::read(entry.path()).unwrap(),
                );
            }
        }
    }
}

#[test]
fn a_data_link_opens_to_the_report_of_its_files() {
    let expected = expected_report();
    let link = share(&["--page", "https://example.github.io/toolscope/"]);
    assert!(link.contains("#data=1."), "{link}");
    for given in [link.as_str(), &link[link.find('#').unwrap()..]] {
        let output = open(&["--json", given]);
        assert_eq!(stdout(&output), expected, "{}", stderr(&output));
        assert_eq!(output.status.code(), Some(1), "the seed has problems");
    }
    // As text, like `report`, and the link (data and all) is not echoed.
    let output = open(&[&link]);
    assert!(stdout(&output).contains("sessions"), "{}", stdout(&output));
    assert!(!stdout(&output).contains("#data=") && !stderr(&output).contains("#data="));
}

#[test]
fn a_damaged_data_link_is_an_error_that_says_why() {
    let link = share(&[]);
    let damaged = format!("{}!!!", &link[..link.len() - 10]);
    let output = open(&["--json", &damaged]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stdout(&output).is_empty());
    assert!(
        stderr(&output).contains("the link: nothing could be opened")
            && stderr(&output).contains("The link's data:"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn a_sealed_file_opens_with_its_key_from_the_link_the_flag_or_the_environment() {
    let expected = expected_report();
    let dir = tempfile::tempdir().unwrap();
    let sealed = dir.path().join("run.tsenc");
    let link = share(&["--encrypt", "--out", sealed.to_str().unwrap()]);
    let key = link.split("key=").nth(1).unwrap().to_string();
    let path = sealed.to_str().unwrap();

    for output in [
        open(&["--json", "--key", &key, path]),
        open(&["--json", "--key", &link, path]),
        toolscope()
            .args(["open", "--json", path])
            .env("TOOLSCOPE_SHARE_KEY", &key)
            .output()
            .unwrap(),
    ] {
        assert_eq!(stdout(&output), expected, "{}", stderr(&output));
        assert!(!stderr(&output).contains(&key), "the key is never printed");
    }

    let missing = open(&["--json", path]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("--key"), "{}", stderr(&missing));
    let mut wrong = key.clone().into_bytes();
    wrong[3] = if wrong[3] == b'A' { b'B' } else { b'A' };
    let wrong = String::from_utf8(wrong).unwrap();
    let refused = open(&["--json", "--key", &wrong, path]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stdout(&refused).is_empty());
    assert!(
        stderr(&refused).contains("cannot decrypt: wrong key or damaged file"),
        "{}",
        stderr(&refused)
    );
    assert!(!stderr(&refused).contains(&wrong));
}

#[test]
fn a_sealed_file_hosted_over_http_opens_from_its_link() {
    let expected = expected_report();
    let dir = tempfile::tempdir().unwrap();
    let sealed = dir.path().join("run.tsenc");
    let host = Host::start();
    let url = format!("{}/runs/run.tsenc", host.origin);
    let link = share(&[
        "--encrypt",
        "--out",
        sealed.to_str().unwrap(),
        "--url",
        &url,
    ]);
    host.put("/runs/run.tsenc", std::fs::read(&sealed).unwrap());
    let output = open(&["--json", &link]);
    assert_eq!(stdout(&output), expected, "{}", stderr(&output));
    // Fetched as the page fetches: no cookie, no credentials, no referrer.
    for request in host.requests.lock().unwrap().iter() {
        for header in ["cookie", "authorization", "referer"] {
            assert!(!request.contains(header), "{request}");
        }
    }
}

fn bundle(out: &Path) {
    let page = out.parent().unwrap().join("dist");
    std::fs::create_dir_all(&page).unwrap();
    std::fs::write(
        page.join("index.html"),
        "<!DOCTYPE html>\n<html>\n<head>\n<title>toolscope</title>\n</head>\n<body></body>\n</html>\n",
    )
    .unwrap();
    std::fs::write(page.join("x.wasm"), b"").unwrap();
    let output = toolscope()
        .args(["bundle", "--title", "nightly", "--out"])
        .arg(out)
        .arg("--page-dir")
        .arg(&page)
        .args(ARGS)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
}

#[test]
fn a_bundle_folder_opens_from_disk_and_from_its_host() {
    let expected = expected_report();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    bundle(&out);
    let folder = out.to_str().unwrap();
    let manifest = out.join("data/toolscope-manifest.json");
    for given in [folder, manifest.to_str().unwrap()] {
        let output = open(&["--json", given]);
        assert_eq!(stdout(&output), expected, "{given}: {}", stderr(&output));
    }
    // Hosted: the folder's address alone (its page names the manifest), or a #src link to it.
    let host = Host::start();
    host.put_folder(&out, "/run/");
    let page = format!("{}/run/index.html", host.origin);
    let src = format!("{}/run/#src=data/toolscope-manifest.json", host.origin);
    for given in [page.as_str(), src.as_str()] {
        let output = open(&["--json", given]);
        assert_eq!(stdout(&output), expected, "{given}: {}", stderr(&output));
    }
    // The title the bundle was made with goes to the HTML report.
    let html = dir.path().join("r.html");
    let output = open(&[folder, "--html", html.to_str().unwrap()]);
    assert!(
        output.status.code().is_some_and(|code| code < 2),
        "{}",
        stderr(&output)
    );
    assert!(std::fs::read_to_string(&html).unwrap().contains("nightly"));
}

#[test]
fn a_file_changed_after_bundling_is_named_and_the_rest_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    bundle(&out);
    let labels = out.join("data/selection_labels.jsonl");
    let mut bytes = std::fs::read(&labels).unwrap();
    bytes.extend_from_slice(b"\n");
    std::fs::write(&labels, bytes).unwrap();
    let output = open(&["--json", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let said = stderr(&output);
    assert!(
        said.contains("selection_labels.jsonl: its SHA-256 is")
            && said.contains("the file changed since the link was made"),
        "{said}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert!(report["selection"].is_null(), "no labels were opened");
    assert!(
        report["summary"]["sessions"].as_u64().unwrap() > 0,
        "the traces were"
    );
}

#[cfg(unix)]
#[test]
fn a_bundle_folder_with_a_planted_link_is_not_read_through_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("site");
    bundle(&out);
    let secret = dir.path().join("secret.jsonl");
    std::fs::write(
        &secret,
        std::fs::read(out.join("data/selection_sessions.jsonl")).unwrap(),
    )
    .unwrap();
    let traces = out.join("data/selection_sessions.jsonl");
    std::fs::remove_file(&traces).unwrap();
    std::os::unix::fs::symlink(&secret, &traces).unwrap();
    let output = open(&["--json", out.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("not a regular file (a link or a folder)"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn hosted_sources_that_fail_are_named_and_a_redirect_to_another_scheme_is_refused() {
    let host = Host::start();
    host.put(
        "/a/tools.json",
        std::fs::read(seed_dir().join("tools.json")).unwrap(),
    );
    let link = format!(
        "{0}/#src={0}/a/tools.json&src={0}/a/missing.jsonl&src={0}/moved/x.jsonl&src=ftp://h/x&src=sessions.jsonl",
        host.origin
    );
    let output = open(&["--json", &link]);
    assert_eq!(output.status.code(), Some(2), "{}", stderr(&output));
    let said = stderr(&output);
    for expected in [
        "missing.jsonl: HTTP 404, not found",
        "redirected to https://127.0.0.1/x.jsonl, another scheme",
        "ftp://h/x: not https",
    ] {
        assert!(said.contains(expected), "{expected}: {said}");
    }
    // The file that loaded is in the report.
    let report: serde_json::Value = serde_json::from_str(&stdout(&output)).unwrap();
    assert_eq!(report["inputs"][0]["file"], "tools.json");
    // Only the part from # on: a relative source cannot be fetched, and says so.
    let output = open(&["#src=sessions.jsonl"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("give the whole link"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn what_is_not_a_share_is_refused_naming_it() {
    let output = open(&["selection_sessions.jsonl"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("selection_sessions.jsonl: not an encrypted toolscope file"),
        "{}",
        stderr(&output)
    );
    let output = open(&["no-such-thing"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("no-such-thing: neither a link nor a file"));
    let output = open(&["https://example.invalid/page#view=problems"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("names no data"),
        "{}",
        stderr(&output)
    );
}
