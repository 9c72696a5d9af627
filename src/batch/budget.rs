//! A heap budget for task processes: the global allocator refuses allocations past it, so an
//! analysis that outgrows `--memory` stops at once with Rust's "memory allocation of N bytes
//! failed" instead of when the parent's next look at its resident size comes round.
//!
//! Without a budget (every process but a task child) the allocator costs one relaxed load
//! per call: nothing is counted, so unrelated threads never contend on a shared counter.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};

/// `isize::MAX` means no budget.
static LIMIT: AtomicIsize = AtomicIsize::new(isize::MAX);
/// Bytes allocated since the budget was set, minus bytes freed since; frees of memory
/// allocated before the budget may drive it below zero, which only errs on the lenient side.
static USED: AtomicIsize = AtomicIsize::new(0);

/// The global allocator of every binary linking duet-rs: the system allocator with an
/// optional budget.
pub(crate) struct Budgeted;

#[global_allocator]
static GLOBAL: Budgeted = Budgeted;

/// Limits the heap growth of this process to `bytes` from now on.
pub(crate) fn set(bytes: u64) {
    USED.store(0, Relaxed);
    LIMIT.store(isize::try_from(bytes).unwrap_or(isize::MAX - 1), Relaxed);
}

fn reserve(size: usize) -> bool {
    let size = size as isize;
    let before = USED.fetch_add(size, Relaxed);
    if before.saturating_add(size) > LIMIT.load(Relaxed) {
        USED.fetch_sub(size, Relaxed);
        false
    } else {
        true
    }
}

fn release(size: usize) {
    USED.fetch_sub(size as isize, Relaxed);
}

fn limited() -> bool {
    LIMIT.load(Relaxed) != isize::MAX
}

// SAFETY: every call is forwarded to `System` with the caller's layout unchanged; the budget
// only decides whether to forward an allocation at all, and a refusal returns null as the
// `GlobalAlloc` contract allows.
unsafe impl GlobalAlloc for Budgeted {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !limited() {
            return System.alloc(layout);
        }
        if !reserve(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc(layout);
        if p.is_null() {
            release(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if !limited() {
            return System.alloc_zeroed(layout);
        }
        if !reserve(layout.size()) {
            return std::ptr::null_mut();
        }
        let p = System.alloc_zeroed(layout);
        if p.is_null() {
            release(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        if limited() {
            release(layout.size());
        }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if !limited() {
            return System.realloc(ptr, layout, new_size);
        }
        let old = layout.size();
        if new_size > old && !reserve(new_size - old) {
            return std::ptr::null_mut();
        }
        let p = System.realloc(ptr, layout, new_size);
        if p.is_null() {
            if new_size > old {
                release(new_size - old);
            }
        } else if new_size < old {
            release(old - new_size);
        }
        p
    }
}
