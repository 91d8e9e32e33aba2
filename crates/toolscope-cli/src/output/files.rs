//! Writing the files and folders a user named, the one way every command does it: whole or not
//! at all, and never through a symbolic link toolscope did not make.
//!
//! A file is written into a new file in the target's own folder (created exclusively, with a
//! random name, so a link planted under a predictable name is never opened), synced, then
//! renamed over the target. A rename replaces a link standing at the target rather than writing
//! where it points, and a failed write leaves the old file (or none) in place. A folder toolscope
//! writes into must be a real folder: a link there is refused, naming it.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::Path;

use anyhow::{bail, Context, Result};

/// Writes `bytes` to `path`, replacing what is there (a link included, never followed), whole
/// or not at all.
pub fn write_replacing(path: &Path, bytes: &[u8]) -> Result<()> {
    let shown = path.display();
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("writing {shown}: not a file name"))?;
    let mut prefix = std::ffi::OsString::from(".");
    prefix.push(name);
    prefix.push(".");
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix).suffix(".partial");
    // As `fs::write` would make it: readable by others as the umask allows (a bundle is served
    // by a web server, a report read by teammates), not the temporary file's owner-only mode.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(fs::Permissions::from_mode(0o666));
    }
    let mut partial = builder
        .tempfile_in(folder)
        .with_context(|| format!("writing {shown}"))?;
    // A file replaced keeps its mode, as it did when written in place.
    let replaced = fs::symlink_metadata(path)
        .ok()
        .filter(|metadata| metadata.is_file());
    if let Some(metadata) = replaced {
        partial
            .as_file()
            .set_permissions(metadata.permissions())
            .with_context(|| format!("writing {shown}"))?;
    }
    partial
        .write_all(bytes)
        .and_then(|()| partial.as_file().sync_all())
        .with_context(|| format!("writing {shown}"))?;
    partial
        .persist(path)
        .map_err(|error| error.error)
        .with_context(|| format!("writing {shown}"))?;
    Ok(())
}

/// Makes sure `path` is a folder to write into: creates it when it is missing (its parents
/// too), and refuses a symbolic link or anything else that is not a real folder.
pub fn real_folder(path: &Path) -> Result<()> {
    let shown = path.display();
    match fs::symlink_metadata(path) {
        Ok(metadata) if metadata.file_type().is_symlink() => bail!(
            "{shown} is a symbolic link: toolscope writes nothing through a link it did not make; \
             remove it, or name another folder"
        ),
        Ok(metadata) if metadata.is_dir() => Ok(()),
        Ok(_) => bail!("{shown} is a file where a folder should be; remove it or name another"),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(path).with_context(|| format!("creating {shown}"))
        }
        Err(error) => Err(error).with_context(|| format!("reading {shown}")),
    }
}

/// Opens `path` to add to its end, creating it when missing; a symbolic link there is refused,
/// not followed (on Unix, by `O_NOFOLLOW` in the same call that opens it).
pub fn open_appending(path: &Path) -> Result<File> {
    let shown = path.display();
    let mut options = OpenOptions::new();
    options.create(true).append(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    #[cfg(not(unix))]
    if fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink()) {
        bail!(
            "{shown} is a symbolic link: toolscope writes nothing through a link it did not make"
        );
    }
    options.open(path).map_err(|error| {
        let is_link =
            fs::symlink_metadata(path).is_ok_and(|metadata| metadata.file_type().is_symlink());
        if is_link {
            anyhow::anyhow!(
                "{shown} is a symbolic link: toolscope writes nothing through a link it did not \
                 make; remove it, or name another file"
            )
        } else {
            anyhow::Error::new(error).context(format!("opening {shown}"))
        }
    })
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::symlink;

    use super::*;

    #[test]
    fn a_link_at_the_target_is_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let target = dir.path().join("report.html");
        symlink(&victim, &target).unwrap();
        write_replacing(&target, b"report").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        assert!(!fs::symlink_metadata(&target)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).unwrap(), "report");
        // Nothing else is left beside it.
        let names: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn a_new_file_gets_the_mode_fs_write_gives_and_a_replaced_one_keeps_its_own() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain");
        fs::write(&plain, "x").unwrap();
        let written = dir.path().join("index.html");
        write_replacing(&written, b"x").unwrap();
        let mode = |path: &Path| fs::metadata(path).unwrap().permissions().mode() & 0o777;
        assert_eq!(
            mode(&written),
            mode(&plain),
            "readable as any file written here"
        );
        fs::set_permissions(&written, fs::Permissions::from_mode(0o600)).unwrap();
        write_replacing(&written, b"y").unwrap();
        assert_eq!(mode(&written), 0o600);
    }

    #[test]
    fn a_folder_that_is_a_link_is_refused_and_a_missing_one_made() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("elsewhere");
        fs::create_dir(&elsewhere).unwrap();
        let linked = dir.path().join("data");
        symlink(&elsewhere, &linked).unwrap();
        let error = real_folder(&linked).unwrap_err().to_string();
        assert!(error.contains("symbolic link"), "{error}");
        real_folder(&dir.path().join("new/nested")).unwrap();
        assert!(dir.path().join("new/nested").is_dir());
    }

    #[test]
    fn appending_refuses_a_link_and_appends_to_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious").unwrap();
        let linked = dir.path().join("cache.jsonl");
        symlink(&victim, &linked).unwrap();
        let error = open_appending(&linked).unwrap_err().to_string();
        assert!(error.contains("symbolic link"), "{error}");
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
        let plain = dir.path().join("plain");
        open_appending(&plain).unwrap().write_all(b"a").unwrap();
        open_appending(&plain).unwrap().write_all(b"b").unwrap();
        assert_eq!(fs::read_to_string(&plain).unwrap(), "ab");
    }
}
