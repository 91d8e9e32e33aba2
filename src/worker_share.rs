//! The worker's side of sharing: unpacking a data link, checking and opening downloaded files
//! (digests, sealed files), packing the files into a link and sealing them. The work is the
//! core's (`toolscope_core::share`); this only moves bytes between the page and it.

use toolscope_core::share::open::{self, FetchedFile};
use toolscope_core::share::{data_link, sealed, Shared, SharedFile};
use toolscope_core::Options;

use crate::protocol::{FileSpec, HostedFile, Reply};

/// What to post: a reply and the bytes that go beside it.
pub type Posted = (Reply, Vec<Vec<u8>>);

/// The files a data link carries, or why there are none (`share::open`, as `toolscope open`).
pub fn open_data(job: u32, value: &str) -> Posted {
    opened(job, open::open_data(value))
}

/// The downloaded files, each checked against its digest; sealed files opened with `key`. A
/// file that fails is named in the errors and the others still open (`share::open`).
pub fn open_hosted(
    job: u32,
    files: Vec<HostedFile>,
    contents: Vec<Vec<u8>>,
    key: Option<&str>,
) -> Posted {
    let fetched = files
        .into_iter()
        .zip(contents)
        .map(|(file, bytes)| FetchedFile {
            name: file.name,
            url: file.url,
            role: file.role,
            sha256: file.sha256,
            bytes,
        })
        .collect();
    opened(job, open::open_fetched(fetched, key))
}

/// A data link's value for the files, or None when they could never fit in a link.
pub fn pack(job: u32, files: Vec<FileSpec>, contents: Vec<Vec<u8>>, options: Options) -> Posted {
    let packed = toolscope_core::share::pack(&shared(files, contents, options));
    let value = data_link::could_fit(packed.len()).then(|| data_link::encode_packed(&packed));
    let reply = Reply::Packed {
        job,
        value,
        packed_bytes: packed.len() as u64,
    };
    (reply, Vec::new())
}

/// The sealed file's bytes.
pub fn seal(
    job: u32,
    files: Vec<FileSpec>,
    contents: Vec<Vec<u8>>,
    options: Options,
    key: &str,
    nonce: [u8; 12],
) -> Posted {
    match sealed::ShareKey::parse(key) {
        Ok(parsed) => {
            let bytes = sealed::seal(&shared(files, contents, options), &parsed, nonce);
            let reply = Reply::Sealed {
                job,
                key: key.to_string(),
            };
            (reply, vec![bytes])
        }
        Err(error) => (
            Reply::Failed {
                job,
                message: error.to_string(),
            },
            Vec::new(),
        ),
    }
}

fn shared(files: Vec<FileSpec>, contents: Vec<Vec<u8>>, options: Options) -> Shared {
    Shared {
        files: files
            .into_iter()
            .zip(contents)
            .map(|(file, bytes)| SharedFile {
                name: file.name,
                role: file.role,
                bytes,
            })
            .collect(),
        options,
    }
}

fn opened(job: u32, opened: open::Opened) -> Posted {
    let open::Opened {
        files,
        options,
        errors,
    } = opened;
    let (specs, contents) = files
        .into_iter()
        .map(|file| {
            (
                FileSpec {
                    name: file.name,
                    role: file.role,
                },
                file.bytes,
            )
        })
        .unzip();
    let reply = Reply::Opened {
        job,
        files: specs,
        options,
        errors,
    };
    (reply, contents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolscope_core::Role;

    fn spec(name: &str) -> FileSpec {
        FileSpec {
            name: name.into(),
            role: Some(Role::Traces),
        }
    }

    fn hosted(name: &str, sha256: Option<String>) -> HostedFile {
        HostedFile {
            name: name.into(),
            url: format!("https://h/{name}"),
            role: None,
            sha256,
        }
    }

    #[test]
    fn a_packed_link_opens_to_the_same_files() {
        let (reply, _) = pack(
            7,
            vec![spec("a.json")],
            vec![b"[1]".to_vec()],
            Options::default(),
        );
        let Reply::Packed {
            value: Some(value), ..
        } = reply
        else {
            panic!("a link value");
        };
        let (reply, bytes) = open_data(8, &value);
        let Reply::Opened {
            job, files, errors, ..
        } = reply
        else {
            panic!("opened");
        };
        assert_eq!(
            (job, files, errors),
            (8, vec![spec("a.json")], Vec::<String>::new())
        );
        assert_eq!(bytes, vec![b"[1]".to_vec()]);
    }

    #[test]
    fn a_sealed_file_needs_the_right_key() {
        let key = sealed::ShareKey::from_bytes([5; 32]).to_text();
        let (_, sealed_bytes) = seal(
            1,
            vec![spec("a.json")],
            vec![b"[1]".to_vec()],
            Options::default(),
            &key,
            [1; 12],
        );
        let sealed_bytes = sealed_bytes[0].clone();
        let open = |key: Option<&str>| {
            let (reply, bytes) = open_hosted(
                1,
                vec![hosted("x.tsenc", None)],
                vec![sealed_bytes.clone()],
                key,
            );
            let Reply::Opened { errors, .. } = reply else {
                panic!("opened");
            };
            (bytes, errors)
        };
        assert_eq!(open(Some(&key)), (vec![b"[1]".to_vec()], Vec::new()));
        let wrong = sealed::ShareKey::from_bytes([6; 32]).to_text();
        let (bytes, errors) = open(Some(&wrong));
        assert!(bytes.is_empty());
        assert!(errors[0].ends_with("cannot decrypt: wrong key or damaged file"));
        assert!(open(None).1[0].contains("has no key"));
    }
}
