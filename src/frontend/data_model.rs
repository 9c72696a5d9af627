//! The data model a preprocessed file was written for. A `.i` file carries its target's
//! type definitions (`typedef unsigned int size_t;` on i386): read with the other model, every
//! `sizeof`, pointer width and wrap-around differs from the program that was compiled.

/// The type definitions that tell a target's pointer width.
/// (The kernel's own names matter: its headers define `size_t` from `__kernel_size_t`.)
const WITNESSES: [&str; 9] = ["size_t", "ssize_t", "ptrdiff_t", "intptr_t", "uintptr_t", "__kernel_size_t", "__kernel_ssize_t", "__kernel_ptrdiff_t", "__intptr_t"];

/// What the file's own definitions say: `Some((true, witness))` for 32-bit pointers,
/// `Some((false, witness))` for 64-bit, `None` when they say nothing or disagree.
fn file_says_ilp32(text: &str) -> Option<(bool, String)> {
    let mut found: Option<(bool, String)> = None;
    for piece in text.split(';') {
        let words: Vec<&str> = piece.split_whitespace().collect();
        let Some(start) = words.iter().rposition(|w| *w == "typedef") else { continue };
        let words = &words[start + 1..];
        let Some((name, ty)) = words.split_last() else { continue };
        if !WITNESSES.contains(name) || ty.is_empty() {
            continue;
        }
        let ilp32 = if ty.iter().all(|w| matches!(*w, "unsigned" | "signed" | "int")) {
            true
        } else if ty.iter().all(|w| matches!(*w, "unsigned" | "signed" | "int" | "long")) && !name.contains("intptr") {
            // A 32-bit target's `size_t` is `unsigned int` (GCC's i386 `__SIZE_TYPE__`), but
            // its `uintptr_t` may well be `unsigned long` (the kernel's), which says nothing.
            false
        } else {
            continue;
        };
        match &found {
            Some((prev, _)) if *prev != ilp32 => return None,
            Some(_) => {}
            None => found = Some((ilp32, format!("`typedef {} {name};`", ty.join(" ")))),
        }
    }
    found
}

/// Whether to read the file as ILP32, given its text and the flags (`--m32`, `--m64`), and a
/// note saying why when the file decided it or contradicts the flags.
pub(super) fn follow_file(text: &str, m32: bool, m64: bool) -> (bool, Option<String>) {
    match file_says_ilp32(text) {
        Some((true, w)) if m64 => (false, Some(format!("warning: --m64 reads the file as LP64, but its {w} is a 32-bit target's (ILP32)\n"))),
        Some((true, w)) if !m32 => (true, Some(format!("note: read as ILP32 (32-bit long and pointers), as the file's {w} says; --m64 reads it as LP64\n"))),
        Some((false, w)) if m32 => (true, Some(format!("warning: --m32 reads the file as ILP32, but its {w} is a 64-bit target's (LP64)\n"))),
        _ => (m32, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn typedefs_decide() {
        assert_eq!(file_says_ilp32("typedef unsigned int size_t;\nint x;").map(|w| w.0), Some(true));
        assert_eq!(file_says_ilp32("typedef long unsigned int size_t; typedef long int ptrdiff_t;").map(|w| w.0), Some(false));
        assert_eq!(file_says_ilp32("typedef unsigned int size_t; typedef long ptrdiff_t;"), None);
        assert_eq!(file_says_ilp32("typedef unsigned int uint;"), None);
        assert_eq!(file_says_ilp32("typedef unsigned int __kernel_size_t;\ntypedef __kernel_long_t __kernel_ssize_t;\ntypedef unsigned long uintptr_t;").map(|w| w.0), Some(true));
        assert!(follow_file("typedef int ptrdiff_t;", false, false).0);
        assert!(!follow_file("typedef int ptrdiff_t;", false, true).0);
        assert!(follow_file("typedef unsigned long size_t;", true, false).1.unwrap().starts_with("warning"));
        assert_eq!(follow_file("int x;", false, false), (false, None));
    }
}
