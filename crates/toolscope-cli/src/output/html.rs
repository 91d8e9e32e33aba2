//! `report --html FILE`: the report as one self-contained HTML file, rendered by toolscope-html
//! (the same renderer as the page's download, so the same bytes for the same report).

use std::path::Path;

use anyhow::{Context, Result};
use toolscope_core::Report;
use toolscope_html::{render, HtmlOptions};

use super::files::write_replacing;

/// Writes the report's HTML to `path`, whole or not at all, never through a link
/// ([`write_replacing`]): a failed write never leaves half a report (or clobbers an older one).
pub fn write_html(report: &Report, title: Option<String>, path: &Path) -> Result<()> {
    let html = render(report, &HtmlOptions { title });
    write_replacing(path, html.as_bytes())
        .with_context(|| format!("writing the HTML report to {}", path.display()))
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn a_link_planted_where_the_partial_file_once_went_is_not_followed() {
        // The partial file used to be `<out>.<pid>.partial`, opened without create-new: a link
        // planted under that name sent the report wherever it pointed.
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        std::fs::write(&victim, "precious").unwrap();
        let out = dir.path().join("report.html");
        let planted = dir
            .path()
            .join(format!("report.html.{}.partial", std::process::id()));
        symlink(&victim, &planted).unwrap();
        symlink(&victim, &out).unwrap();
        let report = toolscope_core::analyze(&[], &toolscope_core::Options::default());
        write_html(&report, None, &out).unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
        assert!(std::fs::read_to_string(&out)
            .unwrap()
            .starts_with("<!doctype html>"));
        assert!(!std::fs::symlink_metadata(&out)
            .unwrap()
            .file_type()
            .is_symlink());
    }
}
