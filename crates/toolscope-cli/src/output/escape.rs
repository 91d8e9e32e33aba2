//! Text from the input made safe to show in a terminal: the core's one rule
//! ([`toolscope_core::shown`]), under the names the CLI's writers use.
//!
//! Session ids, tool names, labels and file names are written by whoever wrote the traces. Shown
//! raw, an ESC sequence in one recolours the terminal, sets its title or moves the cursor, a
//! newline forges a line of our output (`step 99: …`), and a right-to-left override makes a name
//! read backwards. [`terminal_safe`] shows every such character as a visible escape instead.

pub use toolscope_core::shown::{made_visible as terminal_safe, needs_escape as is_escaped};

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::{is_escaped, terminal_safe};

    proptest! {
        #[test]
        fn any_string_comes_out_as_one_line_of_printable_text(text in any::<String>()) {
            let safe = terminal_safe(&text);
            prop_assert!(!safe.chars().any(is_escaped));
            prop_assert_eq!(safe.lines().count(), usize::from(!text.is_empty()));
        }
    }
}
