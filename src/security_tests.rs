//! Guards for the page's rule that nothing from an input file is ever parsed as HTML: no
//! component may set `inner_html` (Leptos's only way to do so), and no `innerHTML` may be
//! reached through web-sys.

#[test]
fn no_component_sets_inner_html() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut stack = vec![src];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src/ is readable") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs")
                && !path.ends_with("security_tests.rs")
            {
                let text = std::fs::read_to_string(&path).expect("a source file");
                for needle in ["inner_html", "set_inner_html", "innerHTML", "outer_html"] {
                    if text.contains(needle) {
                        offenders.push(format!("{}: {needle}", path.display()));
                    }
                }
            }
        }
    }
    assert!(offenders.is_empty(), "HTML from strings: {offenders:?}");
}
