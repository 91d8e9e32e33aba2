//! `report --html FILE`: the report as one self-contained HTML file, rendered by toolscope-html
//! (the same renderer as the page's download, so the same bytes for the same report).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use toolscope_core::Report;
use toolscope_html::{render, HtmlOptions};

/// Writes the report's HTML to `path`, whole or not at all: into a file beside it first, then
/// renamed over it, so that a failed write never leaves half a report (or clobbers an older one)
/// at `path`.
pub fn write_html(report: &Report, title: Option<String>, path: &Path) -> Result<()> {
    let html = render(report, &HtmlOptions { title });
    let shown = path.display();
    let partial = partial_path(path);
    let written =
        write_synced(&partial, html.as_bytes()).and_then(|()| std::fs::rename(&partial, path));
    if let Err(error) = written {
        // The partial file may not even exist; the error that matters is the one above.
        let _ = std::fs::remove_file(&partial);
        return Err(error).with_context(|| format!("writing the HTML report to {shown}"));
    }
    Ok(())
}

/// A name beside `path`, unique to this process, for the file being written.
fn partial_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{}.partial", std::process::id()));
    let mut partial = path.to_path_buf();
    partial.set_file_name(name);
    partial
}

fn write_synced(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = File::create(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::partial_path;

    #[test]
    fn the_partial_file_is_beside_the_target_so_the_rename_stays_on_one_file_system() {
        let partial = partial_path(Path::new("out/report.html"));
        assert_eq!(partial.parent(), Some(Path::new("out")));
        let name = partial.file_name().unwrap().to_str().unwrap();
        assert!(name.starts_with("report.html.") && name.ends_with(".partial"));
    }
}
