//! `toolscope share`: a link that opens the report in the page, which recomputes it from the
//! inputs the link brings (docs/share.md). Either the inputs travel in the link itself
//! (`#data=…`), or they are sealed in a file the user hosts and the link carries its address and
//! key (`#src=…&key=…`). The link goes to stdout, everything said about it to stderr.
//!
//! The key of a sealed file exists only in this process and in the printed link: it is not
//! written to the file, logged, or kept.

use std::path::Path;

use anyhow::{anyhow, bail, Result};
use toolscope_core::share::data_link::{self, LinkFit, MAX_LINK_CHARS, SHORT_LINK_CHARS};
use toolscope_core::share::fragment::{self, HostedSource, SharedSource};
use toolscope_core::share::sealed::{self, ShareKey};
use toolscope_core::share::{
    hosted, packed_len, Shared, SharedFile, MAX_HOSTED_BYTES, MAX_UNPACKED_BYTES,
};

use crate::cli::ShareArgs;
use crate::inputs::{read_inputs, Inputs};
use crate::output::files::write_replacing;
use crate::output::terminal;
use crate::Outcome;
use toolscope_core::diagnostic::grouped;

/// What a sealed link says in place of the file's address when `--url` is not given.
const URL_PLACEHOLDER: &str = "WHERE-YOU-HOST-IT";

/// What to do instead when a link cannot carry the inputs.
const ALTERNATIVES: &str = "seal the inputs in a file to host with `toolscope share --encrypt \
                            --out FILE`, or host them with the page with `toolscope bundle`";

pub fn run(args: &ShareArgs) -> Result<Outcome> {
    let page = args.page.as_deref().map(page_address).transpose()?;
    let mut inputs = read_inputs(&args.inputs, Some(&args.metrics))?;
    inputs.ensure_all_read()?;
    inputs.publish(args.publish_paths);
    let shared = to_shared(inputs);
    match &args.out {
        Some(out) if args.encrypt => seal_to_file(&shared, out, args.url.as_deref(), page),
        _ => print_data_link(&shared, page),
    }
}

/// The inputs as the page will read them: each file under the name the report gives it, with
/// the role its flag gave it.
fn to_shared(inputs: Inputs) -> Shared {
    Shared {
        files: inputs
            .files
            .into_iter()
            .map(|file| SharedFile {
                name: file.name,
                role: Some(file.role),
                bytes: file.bytes,
            })
            .collect(),
        options: inputs.options,
    }
}

/// The page's address as a link starts with it: without a fragment of its own.
fn page_address(page: &str) -> Result<&str> {
    let page = page.strip_suffix('#').unwrap_or(page);
    if page.contains('#') {
        bail!("--page {page}: give the page's address without a fragment (the part from # on)");
    }
    Ok(page)
}

/// `#data=…`: the inputs in the link, printed when the link fits.
fn print_data_link(shared: &Shared, page: Option<&str>) -> Result<Outcome> {
    let packed_bytes = packed_len(shared);
    let could_fit = usize::try_from(packed_bytes).is_ok_and(data_link::could_fit);
    if !could_fit {
        bail!(
            "the inputs come to {} bytes, more than any link of at most {} characters can carry \
             even compressed; {ALTERNATIVES}",
            grouped(packed_bytes),
            grouped(MAX_LINK_CHARS as u64)
        );
    }
    let value = data_link::encode(shared);
    let link = format!(
        "{}{}",
        page.unwrap_or_default(),
        fragment::to_fragment(&SharedSource::Data(value))
    );
    let chars = link.chars().count();
    let fit = match LinkFit::of(chars) {
        LinkFit::Short => "it fits anywhere: a chat message, an email, a ticket".to_string(),
        LinkFit::Long => format!(
            "it fits a PR comment and any browser, maybe not every chat app (Slack splits \
             messages past {} characters)",
            grouped(SHORT_LINK_CHARS as u64)
        ),
        LinkFit::TooLong => bail!(
            "the link would be {} characters, more than {}, the longest toolscope makes (it must \
             fit a GitHub comment); {ALTERNATIVES}",
            grouped(chars as u64),
            grouped(MAX_LINK_CHARS as u64)
        ),
    };
    print_link(&link)?;
    let mut err = terminal::stderr();
    match page {
        Some(_) => err.line(format_args!(
            "the link is {} characters; {fit}",
            grouped(chars as u64)
        ))?,
        None => {
            err.line(format_args!(
                "the link is {} characters plus the page's address; {fit}",
                grouped(chars as u64)
            ))?;
            err.line(
                "append it to the address of a toolscope page (or give --page URL to have it \
                 printed whole)",
            )?;
        }
    }
    err.flush()?;
    Ok(Outcome::Clean)
}

/// `--encrypt`: the inputs sealed in `out` under a fresh key; the link names where the file is
/// hosted and carries the key.
fn seal_to_file(
    shared: &Shared,
    out: &Path,
    url: Option<&str>,
    page: Option<&str>,
) -> Result<Outcome> {
    if let Some(url) = url {
        // The page refuses what this refuses (plain http, credentials); relative addresses are
        // read against the page.
        hosted::resolve(url, page.unwrap_or("https://page.invalid/"))
            .map_err(|error| anyhow!("--url: {error}"))?;
    }
    let packed_bytes = packed_len(shared);
    if packed_bytes > MAX_UNPACKED_BYTES {
        bail!(
            "the inputs come to {} bytes, more than the {} a sealed file may hold; host them with \
             `toolscope bundle` instead",
            grouped(packed_bytes),
            grouped(MAX_UNPACKED_BYTES)
        );
    }
    let key = ShareKey::from_bytes(random_bytes()?);
    let sealed = sealed::seal(shared, &key, random_bytes()?);
    if sealed.len() as u64 > MAX_HOSTED_BYTES {
        bail!(
            "the sealed file would be {} bytes, more than the {} MiB the page downloads; host the \
             inputs with `toolscope bundle` instead (each file up to {} MiB)",
            grouped(sealed.len() as u64),
            MAX_HOSTED_BYTES >> 20,
            MAX_HOSTED_BYTES >> 20
        );
    }
    write_replacing(out, &sealed)?;
    let source = SharedSource::Hosted {
        sources: vec![HostedSource {
            url: url.unwrap_or(URL_PLACEHOLDER).to_string(),
            sha256: None,
            role: None,
        }],
        key: Some(key.to_text()),
    };
    let link = format!(
        "{}{}",
        page.unwrap_or_default(),
        fragment::to_fragment(&source)
    );
    print_link(&link)?;

    let mut err = terminal::stderr();
    err.line(format_args!(
        "wrote {} ({} bytes): the inputs, encrypted with AES-256-GCM",
        out.display(),
        grouped(sealed.len() as u64)
    ))?;
    if url.is_none() {
        err.line(format_args!(
            "host it where anyone with the link can download it over https, then put its address \
             in place of {URL_PLACEHOLDER} in the link"
        ))?;
    }
    if page.is_none() {
        err.line("append the link to the address of a toolscope page")?;
    }
    for note in [
        "the host cannot read the file: the key is only in the link, after the #, which browsers \
         never send to a server",
        "anyone with the full link can open it: share the link as you would share the data",
        "deleting the hosted file revokes every link to it",
        "the key is printed only here and saved nowhere: keep the link, the file cannot be opened \
         without it",
    ] {
        err.line(note)?;
    }
    err.flush()?;
    Ok(Outcome::Clean)
}

/// The link, alone on stdout.
fn print_link(link: &str) -> Result<()> {
    let mut out = terminal::stdout();
    out.line(link)?;
    out.flush()?;
    Ok(())
}

/// Fresh bytes from the operating system's random source.
fn random_bytes<const N: usize>() -> Result<[u8; N]> {
    let mut bytes = [0; N];
    getrandom::fill(&mut bytes)
        .map_err(|error| anyhow!("the operating system gave no random bytes: {error}"))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::page_address;

    #[test]
    fn a_page_address_loses_a_bare_hash_and_refuses_a_fragment() {
        assert_eq!(
            page_address("https://x.example/tool/#").unwrap(),
            "https://x.example/tool/"
        );
        assert_eq!(
            page_address("https://x.example/tool/").unwrap(),
            "https://x.example/tool/"
        );
        assert!(page_address("https://x.example/tool/#view=problems").is_err());
    }
}
