//! `toolscope open`: what was shared opened without a browser (a data link, a link to hosted
//! files, a sealed `.tsenc` file, a bundle folder), with the page's own code
//! (`toolscope_core::share::open`): every digest checked, sealed files decrypted, a manifest's
//! files resolved relative to it; then the report printed as `report` prints it. A file that
//! cannot be opened is an error naming it (exit 2) and the rest is still reported. The link is
//! never printed: it can carry a key.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{anyhow, bail, Context, Result};
use toolscope_core::share::fragment::{self, HostedSource, SharedSource};
use toolscope_core::share::open::{list_manifest, open_data, open_fetched, FetchedFile, Opened};
use toolscope_core::share::{hosted, manifest, sealed, MAX_HOSTED_BYTES};
use toolscope_core::{analyze, detect_role, Diagnostic, InputFile, Options, MAX_FILE_BYTES};

use super::report::print_report;
use crate::cli::OpenArgs;
use crate::fetch::Fetcher;
use crate::output::html::write_html;
use crate::Outcome;

/// How messages name a link (never by its text, which can carry a key).
const LINK_NAME: &str = "the link";

/// The host a bundle folder's manifest is read under, so that its files resolve exactly as the
/// page resolves them against the hosted manifest; a file that resolves elsewhere is not in the
/// folder.
const BUNDLE_HOST: &str = "https://bundle.invalid/";

/// What a source opened to, with the manifest's title when there was one.
struct OpenedSource {
    opened: Opened,
    title: Option<String>,
    /// How messages name the source.
    name: String,
}

pub fn run(args: &OpenArgs) -> Result<Outcome> {
    let key = args.key.as_deref().map(key_of);
    let OpenedSource {
        opened,
        title,
        name,
    } = open_source(&args.source, key.as_deref())?;
    if opened.files.is_empty() {
        bail!(
            "{name}: nothing could be opened{}",
            opened
                .errors
                .iter()
                .map(|error| format!("\n  {error}"))
                .collect::<String>()
        );
    }
    let inputs: Vec<InputFile<'_>> = opened
        .files
        .iter()
        .map(|file| {
            let role = file.role.unwrap_or_else(|| detect_role(&file.bytes).0);
            InputFile::new(&file.name, &file.bytes, role)
        })
        .collect();
    let options = opened.options.unwrap_or_default();
    let mut report = analyze(&inputs, &options);
    // What could not be opened comes first, as the page lists it above the report.
    let failed = opened
        .errors
        .iter()
        .map(|error| Diagnostic::error(&name, None, error.clone()));
    report.diagnostics.splice(0..0, failed);
    if let Some(path) = &args.output.html {
        write_html(&report, args.output.title.clone().or(title), path)?;
    }
    print_report(report, &args.output)
}

/// A key as given: the key itself, or a link that carries one after `key=`.
fn key_of(given: &str) -> String {
    let fragment = given
        .split_once('#')
        .map_or(given, |(_, fragment)| fragment);
    match fragment::parse(fragment) {
        Some(SharedSource::Hosted { key: Some(key), .. }) => key,
        _ => given.trim().to_string(),
    }
}

fn open_source(source: &str, key: Option<&str>) -> Result<OpenedSource> {
    let is_link = source.starts_with('#') || source.contains("://");
    let path = Path::new(source);
    if !is_link {
        let metadata = std::fs::metadata(path)
            .with_context(|| format!("{source}: neither a link nor a file or folder here"))?;
        return if metadata.is_dir() {
            open_bundle(&bundle_manifest(path)?, key)
        } else {
            open_file(path, key)
        };
    }
    open_link(source, key)
}

/// A link: `#data=…` opened from itself, `#src=…` fetched; a link without a `#` part is the
/// address of a hosted bundle folder (its page names the manifest), a manifest or a sealed file.
fn open_link(link: &str, key: Option<&str>) -> Result<OpenedSource> {
    let (page, sources, link_key) = match link.split_once('#') {
        None => {
            let source = HostedSource {
                url: link.to_string(),
                sha256: None,
                role: None,
            };
            (link, vec![source], None)
        }
        Some((page, fragment)) => match fragment::parse(fragment) {
            Some(SharedSource::Data(value)) => {
                return Ok(OpenedSource {
                    opened: open_data(&value),
                    title: None,
                    name: LINK_NAME.into(),
                })
            }
            Some(SharedSource::Hosted { sources, key }) => (page, sources, key),
            None => bail!(
                "{LINK_NAME} names no data (no data= or src= after its #): is it the whole link?"
            ),
        },
    };
    // A relative `src` is read against the page's address, as the page reads it.
    let base = if page.is_empty() { NO_PAGE } else { page };
    let fetcher = Fetcher::new();
    let mut hosted = Hosted::default();
    for source in sources {
        if let Err(message) = hosted.fetch_source(&fetcher, source, base) {
            hosted.errors.push(message);
        }
    }
    let mut opened = open_fetched(hosted.files, link_key.as_deref().or(key));
    opened.errors.splice(0..0, hosted.errors);
    opened.options = opened.options.or(hosted.options);
    Ok(OpenedSource {
        opened,
        title: hosted.title,
        name: LINK_NAME.into(),
    })
}

/// The address relative sources are read against when a link is only its `#` part.
const NO_PAGE: &str = "https://page.invalid/";

/// What a link's hosted sources gave.
#[derive(Default)]
struct Hosted {
    files: Vec<FetchedFile>,
    errors: Vec<String>,
    title: Option<String>,
    options: Option<Options>,
}

impl Hosted {
    /// Fetches one source: a file, a manifest and the files it lists, or a bundle's page and the
    /// manifest it names.
    fn fetch_source(
        &mut self,
        fetcher: &Fetcher,
        source: HostedSource,
        base: &str,
    ) -> Result<(), String> {
        let url = hosted::resolve(&source.url, base).map_err(|error| error.to_string())?;
        if url.host_str() == Some("page.invalid") {
            return Err(format!(
                "{}: a file named relative to the page; give the whole link, the page's address \
                 included",
                hosted::shown_url(&source.url)
            ));
        }
        let mut fetched = fetcher.get(&url)?;
        let mut source = source;
        if let Some(named) = manifest::named_by_page(&fetched.bytes) {
            // A bundle's page: its manifest, as the page itself finds it.
            let manifest_url =
                hosted::resolve(&named, &fetched.url).map_err(|error| error.to_string())?;
            fetched = fetcher.get(&manifest_url)?;
            source = HostedSource {
                url: manifest_url.to_string(),
                sha256: None,
                role: None,
            };
        }
        if !manifest::is_manifest(&fetched.bytes) {
            self.files.push(FetchedFile {
                name: hosted::file_name(&url),
                url: url.to_string(),
                role: source.role,
                sha256: source.sha256,
                bytes: fetched.bytes,
            });
            return Ok(());
        }
        let listed = list_manifest(&source, &fetched.url, &fetched.bytes)?;
        self.title = listed.manifest.title.clone();
        self.options = listed.manifest.options;
        for listed_file in listed.files {
            let got = listed_file.and_then(|(file, url)| {
                let fetched = fetcher.get(&url)?;
                Ok(FetchedFile {
                    bytes: fetched.bytes,
                    ..file
                })
            });
            match got {
                Ok(file) => self.files.push(file),
                Err(message) => self.errors.push(message),
            }
        }
        Ok(())
    }
}

/// A bundle folder's manifest: `DIR/data/toolscope-manifest.json` as `toolscope bundle` writes
/// it, or `DIR/toolscope-manifest.json` (the data folder itself).
fn bundle_manifest(dir: &Path) -> Result<PathBuf> {
    let candidates = [
        dir.join("data").join(manifest::FILE_NAME),
        dir.join(manifest::FILE_NAME),
    ];
    candidates
        .iter()
        .find(|path| path.is_file())
        .cloned()
        .ok_or_else(|| {
            anyhow!(
                "{}: no {} in it or in its data/ folder: not a folder `toolscope bundle` wrote",
                dir.display(),
                manifest::FILE_NAME
            )
        })
}

/// A manifest on disk and the files it lists, read from its folder; a file it lists elsewhere
/// (another folder, another host) is refused.
fn open_bundle(manifest_path: &Path, key: Option<&str>) -> Result<OpenedSource> {
    let name = manifest_path.display().to_string();
    let bytes = read_regular(manifest_path, manifest::MAX_MANIFEST_BYTES as u64)?;
    let folder = manifest_path.parent().unwrap_or(Path::new("."));
    let source = HostedSource {
        url: manifest::FILE_NAME.into(),
        sha256: None,
        role: None,
    };
    let manifest_url = format!("{BUNDLE_HOST}{}", manifest::FILE_NAME);
    let listed = list_manifest(&source, &manifest_url, &bytes).map_err(|message| {
        anyhow!(
            "{name}: {}",
            message.trim_start_matches(&format!("{manifest_url}: "))
        )
    })?;
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    for listed_file in listed.files {
        let read = listed_file.and_then(|(file, url)| {
            let relative: Vec<String> = url
                .path_segments()
                .map(|segments| segments.map(hosted::decoded_segment).collect())
                .unwrap_or_default();
            let path = relative
                .iter()
                .fold(folder.to_path_buf(), |path, segment| path.join(segment));
            if !url.as_str().starts_with(BUNDLE_HOST) || url.query().is_some() {
                return Err(format!(
                    "{}: listed outside the bundle's folder; toolscope open reads a bundle's files from the folder only",
                    file.name
                ));
            }
            let bytes = read_regular(&path, MAX_FILE_BYTES).map_err(|error| format!("{error:#}"))?;
            Ok(FetchedFile {
                url: path.display().to_string(),
                bytes,
                ..file
            })
        });
        match read {
            Ok(file) => files.push(file),
            Err(message) => errors.push(message),
        }
    }
    let mut opened = open_fetched(files, key);
    opened.errors.splice(0..0, errors);
    opened.options = opened.options.or(listed.manifest.options);
    Ok(OpenedSource {
        opened,
        title: listed.manifest.title,
        name,
    })
}

/// A sealed file, or a manifest given by its path.
fn open_file(path: &Path, key: Option<&str>) -> Result<OpenedSource> {
    let name = path.display().to_string();
    let bytes = read_regular(path, MAX_HOSTED_BYTES)?;
    if manifest::is_manifest(&bytes) {
        return open_bundle(path, key);
    }
    if !sealed::is_sealed(&bytes) {
        bail!(
            "{name}: not an encrypted toolscope file (.tsenc), a manifest or a bundle folder; \
             `toolscope report` reads traces"
        );
    }
    if key.is_none() {
        bail!(
            "{name}: an encrypted toolscope file; give its key with --key (the part after key= \
             in its link, or the whole link) or TOOLSCOPE_SHARE_KEY"
        );
    }
    let file = FetchedFile {
        name: path
            .file_name()
            .map_or_else(|| name.clone(), |base| base.to_string_lossy().into_owned()),
        url: name.clone(),
        role: None,
        sha256: None,
        bytes,
    };
    Ok(OpenedSource {
        opened: open_fetched(vec![file], key),
        title: None,
        name,
    })
}

/// A regular file's bytes (never through a link: a bundle folder is someone else's), at most
/// `limit` of them.
fn read_regular(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let name = path.display();
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let refused =
        || anyhow!("{name}: not a regular file (a link or a folder); toolscope open reads none");
    if std::fs::symlink_metadata(path).is_ok_and(|metadata| !metadata.is_file()) {
        return Err(refused());
    }
    let file = options
        .open(path)
        .with_context(|| format!("{name}: cannot be read"))?;
    let metadata = file
        .metadata()
        .with_context(|| format!("{name}: cannot be read"))?;
    if !metadata.is_file() {
        return Err(refused());
    }
    if metadata.len() > limit {
        bail!("{name}: larger than {limit} bytes, the most toolscope opens from one file");
    }
    let mut bytes = Vec::with_capacity(metadata.len() as usize);
    file.take(limit)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{name}: cannot be read"))?;
    Ok(bytes)
}
