//! Issue 40, "internal names in messages": invariants and reasons printed to the user name
//! source variables and source lines, not the front-end's `n#2`, `$r21` or bare addresses.

use crate::common;

fn text(args: &[&str]) -> String {
    let out = common::duet(args);
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// A second local `n` is written `n (declared at line 8)`, and the unsigned `p`'s bound at its
/// type's maximum is left out of the reason's invariant.
#[test]
fn unproved_reason_names_the_source_variable() {
    let t = text(&["check", "--engines", "coarsen", "tests/programs/internal_names/unproved.c"]);
    assert!(t.contains("'p + n != 7'") && t.contains("unknown"), "{t}");
    assert!(t.contains("invariant: n (declared at line 8) == 2"), "{t}");
    assert!(!t.contains("n#2"), "{t}");
    assert!(!t.contains("18446744073709551615"), "{t}");
    // The verdicts themselves are unchanged: the outer `n` is proved.
    assert!(t.contains("13:3  safe"), "{t}");
}

/// `--invariants` leaves out conjuncts on compiler temporaries and bounds at a type's extreme,
/// and writes shadowing locals by their source name and declaration line.
#[test]
fn printed_invariants_hide_temporaries_and_extremes() {
    let t = text(&["check", "--invariants", "tests/programs/internal_names/shadowed.c"]);
    let invs: Vec<&str> = t.lines().filter_map(|l| l.split_once(" { ").map(|(_, inv)| inv)).collect();
    assert!(invs.len() > 10, "{t}");
    for inv in &invs {
        assert!(!inv.contains('$') && !inv.contains('#'), "internal name in `{inv}`:\n{t}");
        assert!(!inv.contains("18446744073709551615") && !inv.contains("2147483647"), "type extreme in `{inv}`:\n{t}");
    }
    assert!(invs.iter().any(|i| i.contains("1 <= n (declared at line 9) <= 2")), "{t}");
    assert!(invs.iter().any(|i| i.starts_with("g >= 0 }")), "{t}");
    assert!(t.contains("safe          'n == 3'") && t.contains("safe          'g >= 0'"), "{t}");
}

/// The finite-state engine's failing state writes a read-write lock's value as a word.
#[test]
fn finite_state_shows_a_rwlock_as_a_word() {
    let t = text(&["check", "--engines", "finite", "tests/programs/internal_names/rwlock_race.c"]);
    assert!(t.contains("15:3  unknown"), "{t}");
    assert!(t.contains("reader at line 15 with rw free count=1"), "{t}");
    assert!(!t.contains("rw=0") && !t.contains("rw=-1"), "{t}");
}

/// A replayed interleaving's accesses to a read-write lock say what its value means.
#[test]
fn replayed_trace_shows_a_rwlock_as_a_word() {
    let t = text(&["check", "--engines", "explore", "tests/programs/internal_names/rwlock_race.c"]);
    assert!(t.contains("15:3  violated"), "{t}");
    assert!(t.contains("(write rw = -1 (write-locked))") && t.contains("(write rw = 0 (free))"), "{t}");
    assert!(!t.contains("rw = -1)"), "{t}");
}

/// A variable that sits at its type's extreme keeps its value in the printed invariant: only a
/// bound that says nothing is left out.
#[test]
fn a_value_at_the_extreme_is_still_printed() {
    let t = text(&["check", "--engines", "coarsen", "--invariants", "tests/programs/internal_names/extreme_point.c"]);
    assert!(t.contains("safe          'c == 255 && b'"), "{t}");
    assert!(t.contains("{ c == 255 }") && t.contains("{ b == 1 }"), "{t}");
}
