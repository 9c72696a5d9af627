//! Library models and the exactness discipline, on real programs: an assertion that holds
//! after a modelled call is never `violated` (by default and at bounds 1 to 4); its failing twin
//! is never `safe` and is `violated` at a small bound; a violation that rests on an
//! over-approximation is `unknown`, naming it; a havoc that cannot cover a call forbids proofs.

use crate::common;

use duet_rs::engine::{Bound, CheckOptions};
use duet_rs::frontend::{load, FrontendOptions};
use duet_rs::ir::Program;
use duet_rs::strategy::check_program;
use duet_rs::verdict::{AssertionVerdict, Status};

fn program(name: &str) -> Program {
    let path = format!("tests/programs/library/{name}.c");
    load(&common::repo(&path), &FrontendOptions::default()).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Verdicts by the default strategy and with `--bound k`, on a 20 s search budget (a third of
/// the default: what these programs decide, they decide in a few seconds, and an undecided
/// one would otherwise spend a minute per bound).
fn verdicts(p: &Program, bound: Option<u32>) -> Vec<AssertionVerdict> {
    let opts = CheckOptions { bound: bound.map(|k| Bound { unroll: k, threads: k }), search_time: 20.0, ..CheckOptions::default() };
    check_program(p, &opts).verdicts
}

const BOUNDS: [Option<u32>; 5] = [None, Some(1), Some(2), Some(3), Some(4)];

/// Every assertion of the program holds: none may be `violated`, by default or at any bound.
fn never_violated(name: &str) {
    let p = program(name);
    assert!(p.unsupported.is_empty(), "{name}: {:?}", p.unsupported);
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert_ne!(v.status, Status::Violated, "{name} at bound {b:?}: {} {}: {:?}", v.id, v.reason, v.detail);
        }
    }
}

/// The assertion on `line` can fail: never `safe`, and `violated` at bound `k`.
fn fails(name: &str, line: u32, k: u32) {
    let p = program(name);
    let at = format!(":{line}:");
    for b in BOUNDS {
        let vs = verdicts(&p, b);
        let v = vs.iter().find(|v| v.id.contains(&at)).unwrap_or_else(|| panic!("{name}: no assertion on line {line}"));
        assert!(!matches!(v.status, Status::Safe | Status::BoundedSafe), "{name} at bound {b:?}: {} is {:?}: {}", v.id, v.status, v.reason);
        if b == Some(k) {
            assert_eq!(v.status, Status::Violated, "{name} at bound {k}: {}", v.reason);
        }
    }
}

/// Every assertion stays `unknown`, by default and at every bound: it can fail only through a
/// havoc, so it is never proved, and never `violated` (no replay rests on a havoc).
fn never_decided(name: &str) {
    let p = program(name);
    assert!(p.unsupported.is_empty(), "{name}: {:?}", p.unsupported);
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert!(!matches!(v.status, Status::Violated | Status::Safe | Status::BoundedSafe), "{name} at bound {b:?}: {} is {:?}: {}", v.id, v.status, v.reason);
        }
    }
}

/// The assertion on `line` is never proved, by default or at any bound.
fn fails_unknown(name: &str, line: u32) {
    let p = program(name);
    let at = format!(":{line}:");
    for b in BOUNDS {
        let vs = verdicts(&p, b);
        let v = vs.iter().find(|v| v.id.contains(&at)).unwrap_or_else(|| panic!("{name}: no assertion on line {line}"));
        assert!(!matches!(v.status, Status::Safe | Status::BoundedSafe), "{name} at bound {b:?}: {} is {:?}: {}", v.id, v.status, v.reason);
    }
}

/// Some verdict of the program is proved `safe` at bound `k` (the models are precise enough).
fn proved(name: &str, line: u32, k: u32) {
    let p = program(name);
    let at = format!(":{line}:");
    let vs = verdicts(&p, Some(k));
    let v = vs.iter().find(|v| v.id.contains(&at)).expect("assertion");
    assert_eq!(v.status, Status::Safe, "{name}: {}", v.reason);
}

#[test]
fn memset_writes_every_byte_it_covers() {
    never_violated("memset_holds");
    proved("memset_holds", 14, 1);
    proved("memset_holds", 16, 1);
    // The havoc that wrote only the first element made this `safe` before.
    fails("memset_fails", 10, 1);
}

#[test]
fn memcpy_memmove_and_calloc_copy_and_zero_exactly() {
    never_violated("memcpy_holds");
    proved("memcpy_holds", 13, 1);
    proved("memcpy_holds", 17, 1);
    fails("memcpy_fails", 11, 1);
}

#[test]
fn calloc_of_a_run_time_count_zeroes_every_element() {
    never_violated("calloc_count_holds");
    fails("calloc_count_fails", 13, 1);
    // `malloc` of a run-time count: arbitrary contents.
    fails("calloc_count_fails", 19, 1);
    // A count an inlined parameter holds (copied into the loop's bound) is counted: bound 1
    // is exhaustive.
    never_violated("calloc_param_holds");
    proved("calloc_param_holds", 9, 1);
    fails("calloc_param_fails", 8, 1);
}

#[test]
fn string_literals_and_string_functions_are_exact() {
    never_violated("strings_holds");
    for line in [6, 8, 10, 11, 12, 13, 14, 18, 19, 20, 23] {
        proved("strings_holds", line, 1);
    }
    fails("strings_fails", 6, 1);
}

#[test]
fn sync_fetch_and_add_is_one_atomic_step() {
    never_violated("atomic_holds");
    proved("atomic_holds", 11, 2);
    // The same increment as a read and a write races.
    fails("atomic_fails", 11, 1);
}

#[test]
fn compare_and_swap_and_atomic_builtins() {
    never_violated("cas_holds");
    fails("cas_fails", 13, 1);
}

#[test]
fn pthread_join_gives_what_the_thread_returned() {
    never_violated("join_value");
    proved("join_value", 9, 1);
    fails("join_value_fails", 9, 1);
}

#[test]
fn a_join_value_the_front_end_cannot_attribute_is_never_invented() {
    // Handles in an array, threads created in a loop: the value is over-approximated, and
    // the approximation, named, keeps the replay from deciding the assertion.
    let p = program("join_value_many");
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert_eq!(v.status, Status::Unknown, "bound {b:?}: {}", v.reason);
            if b.is_some() {
                assert!(v.reason.contains("the value a joined thread returned"), "{}", v.reason);
            }
        }
    }
}

#[test]
fn a_violation_resting_on_an_unmodelled_call_is_unknown_naming_it() {
    let p = program("unmodelled_call");
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert_eq!(v.status, Status::Unknown, "bound {b:?}: {}", v.reason);
            if b.is_some() {
                assert!(v.reason.contains("a call of `fill`") && v.reason.contains("unmodelled_call.c:5:3"), "{}", v.reason);
            }
        }
    }
}

#[test]
fn an_unmodelled_result_nothing_reads_does_not_block_a_real_violation() {
    // `fprintf`'s count is stored and never read: the failure after it is found at every
    // bound, after the first candidate (through `sscanf`'s made-up count) is set aside.
    for k in 1..=4 {
        fails("unread_result_fails", 20, k);
    }
    // The twin reads the count: the failure needs a value only the approximation makes up.
    let p = program("unread_result_read");
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert_eq!(v.status, Status::Unknown, "bound {b:?}: {}", v.reason);
        }
    }
}

#[test]
fn floating_point_is_an_approximation_not_an_input() {
    let p = program("float_approx");
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert_eq!(v.status, Status::Unknown, "bound {b:?}: {}", v.reason);
        }
    }
}

#[test]
fn an_incomplete_havoc_forbids_every_proof() {
    // `walk` may follow `first.next` and write `second`: the havoc cannot name that memory.
    let p = program("incomplete_havoc");
    assert!(p.incomplete_approximation().is_some());
    for b in BOUNDS {
        for v in verdicts(&p, b) {
            assert!(!matches!(v.status, Status::Safe | Status::Violated), "bound {b:?}: {:?} {}", v.status, v.reason);
        }
    }
}

#[test]
fn a_drivers_own_spinlock_replaces_the_built_in_model() {
    let p = program("driver_spinlock");
    assert!(p.unsupported.is_empty(), "{:?}", p.unsupported);
    for b in BOUNDS {
        let vs = verdicts(&p, b);
        let count2 = vs.iter().find(|v| v.id.contains(":32:")).expect("assertion");
        assert_ne!(count2.status, Status::Violated, "bound {b:?}: {:?}", count2.detail);
    }
    fails("driver_spinlock", 33, 1);
}

#[test]
fn stdatomic_h_parses_and_its_operations_are_atomic() {
    never_violated("stdatomic_holds");
    proved("stdatomic_holds", 12, 2);
    fails("stdatomic_fails", 12, 1);
}

#[test]
fn semaphores_count() {
    never_violated("sem_holds");
    proved("sem_holds", 19, 1);
    // Two permits let both threads into the racy increment.
    fails("sem_fails", 19, 1);
}

#[test]
fn read_write_locks_exclude_writers() {
    never_violated("rwlock_holds");
    proved("rwlock_holds", 26, 1);
    // Writers that take the lock for reading overlap each other and the reader.
    fails("rwlock_fails", 14, 1);
    fails("rwlock_fails", 26, 1);
}

#[test]
fn pthread_once_runs_its_routine_once_and_others_wait() {
    never_violated("once_holds");
    proved("once_holds", 8, 1);
    proved("once_holds", 17, 1);
    fails("once_fails", 17, 1);
}

#[test]
fn func_is_a_string_and_pthread_self_an_approximation() {
    never_violated("func_and_self");
    proved("func_and_self", 5, 1);
    proved("func_and_self", 6, 1);
    let p = program("func_and_self");
    for b in BOUNDS {
        let vs = verdicts(&p, b);
        let v = vs.iter().find(|v| v.id.contains(":7:")).expect("assertion");
        assert_eq!(v.status, Status::Unknown, "bound {b:?}: {}", v.reason);
    }
}

#[test]
fn slow_an_undefined_function_writes_every_object_whose_address_it_can_reach() {
    if !common::slow("an_undefined_function_writes_every_object_whose_address_it_can_reach") {
        return;
    }
    // Through a pointer field, an integer, a structure passed by value, a callback, the
    // rest of the object around a member or element, an address kept by an earlier call
    // (in the same thread, another thread, or a local), and a pointer it returns.
    for name in ["escape_field", "escape_int", "escape_by_value", "escape_callback", "escape_element", "escape_local", "escape_thread", "escape_returned"] {
        never_decided(name);
    }
    never_violated("escape_later");
    fails_unknown("escape_later", 13);
    // `h` is static and its address never escapes: the havocs stay precise enough to prove it.
    proved("escape_later", 12, 1);
    never_violated("escape_holds");
}

#[test]
fn a_barrier_holds_every_thread_until_the_last_arrives() {
    never_violated("barrier_holds");
    // Both writes happen before either thread leaves; exactly one is the serial thread.
    for line in [10, 20, 22] {
        proved("barrier_holds", line, 1);
    }
    // A barrier for one thread lets `main` through before the other thread writes.
    fails("barrier_fails", 17, 1);
}

#[test]
fn thread_specific_values_are_per_thread_and_null_at_first() {
    never_violated("keys_holds");
    for line in [8, 10, 16, 17, 18, 21, 22] {
        proved("keys_holds", line, 1);
    }
    fails("keys_fails", 16, 1);
    // Thread-local memory at a symbolic address starts as zero; the stack beside it does not.
    fails("keys_index_fails", 16, 1);
    fails("keys_index_fails", 17, 1);
}

#[test]
fn realloc_keeps_the_contents_of_null_allocates_and_to_zero_frees() {
    never_violated("realloc_holds");
    for line in [9, 10, 13, 14] {
        proved("realloc_holds", line, 1);
    }
    fails("realloc_fails", 16, 1);
}

#[test]
fn a_fence_without_operands_changes_nothing() {
    never_violated("asm_fence_holds");
    proved("asm_fence_holds", 17, 1);
    fails("asm_fence_fails", 16, 1);
}

#[test]
fn overflow_built_ins_store_the_wrapped_result_and_say_whether_it_wrapped() {
    never_violated("overflow_holds");
    for line in [17, 19, 20, 21, 23, 25] {
        proved("overflow_holds", line, 1);
    }
    never_violated_on("overflow_fails", 14);
    fails("overflow_fails", 15, 1);
    fails("overflow_fails", 17, 1);
}

#[test]
fn reaching_unreachable_ends_the_path_but_not_the_other_threads() {
    never_violated("unreachable_holds");
    proved("unreachable_holds", 22, 1);
    fails("unreachable_fails", 20, 1);
    fails("unreachable_fails", 21, 1);
}

/// The assertion on `line` holds: never `violated`, by default or at any bound.
fn never_violated_on(name: &str, line: u32) {
    let p = program(name);
    let at = format!(":{line}:");
    for b in BOUNDS {
        let vs = verdicts(&p, b);
        let v = vs.iter().find(|v| v.id.contains(&at)).unwrap_or_else(|| panic!("{name}: no assertion on line {line}"));
        assert_ne!(v.status, Status::Violated, "{name} at bound {b:?}: {}", v.reason);
    }
}
