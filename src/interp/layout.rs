//! The concrete memory model shared by the bounded encoder and the replay interpreter.
//!
//! Memory is a flat space of *slots*: every scalar (integer, pointer, mutex, float) takes one
//! slot, a struct the sum of its fields, a union its largest field, an array its length times
//! its element. A pointer is the integer address of a slot, so `p + i` moves `i` elements and
//! `&s.f` adds the field's slot offset. Both engines use these addresses, which is what makes a
//! symbolic witness replayable: the encoder never needs an address the interpreter would
//! compute differently.
//!
//! Regions, far enough apart that in-bounds pointer arithmetic never crosses them:
//! - globals from [`GLOBAL_BASE`], zero-initialised;
//! - one block per thread instance from [`LOCAL_BASE`]: its thread-local globals
//!   (zero-initialised) and then its template's locals (arbitrary until written);
//! - heap objects from [`HEAP_BASE`], one per `Alloc` a thread executes (arbitrary contents).

use crate::ir::{CType, DataModel, Program, RecordId, TemplateId, VarId, VarKind};

/// Address of the first global.
pub const GLOBAL_BASE: i128 = 1 << 12;
// Function addresses (`ir::memory::function_address`) stay below every object.
const _: () = assert!(crate::ir::memory::FUNCTION_ADDRESS_BASE + crate::ir::memory::FUNCTION_ADDRESS_SLOTS <= GLOBAL_BASE);
/// Address of the first thread's local block.
pub const LOCAL_BASE: i128 = 1 << 40;
/// Address of the first heap object.
pub const HEAP_BASE: i128 = 1 << 52;
/// Slots reserved for one heap object.
pub const HEAP_OBJECT_SLOTS: i128 = 1 << 20;
/// Heap space reserved for the objects one thread allocates.
pub const HEAP_THREAD_STRIDE: i128 = 1 << 36;
/// Handles of threads that are created but never scheduled start here; modelled threads'
/// handles are their instance numbers, which stay far below.
pub const UNSCHEDULED_HANDLE_BASE: i128 = 1 << 30;
/// The data model of values in this address space: pointers are 64-bit whatever the program's
/// data model, since the regions above lie beyond 32 bits. Types still follow the program's
/// model; only conversions to and from pointers use this one.
pub const ADDRESS_MODEL: DataModel = DataModel::LP64;
/// Slots given to an array of unknown length.
const UNKNOWN_ARRAY_LEN: i128 = 1024;

/// Addresses of variables and sizes of types for one program.
#[derive(Clone, Debug)]
pub struct Layout {
    /// Per variable: its address (globals) or its offset in a thread's block (the rest).
    place: Vec<i128>,
    /// Slots of each variable.
    size: Vec<i128>,
    /// Size of one thread's block.
    stride: i128,
    /// Slots at the start of each block that hold thread-local globals.
    tls: i128,
    /// End of the global region.
    globals_end: i128,
    record_sizes: Vec<i128>,
    record_offsets: Vec<Vec<i128>>,
}

impl Layout {
    /// Lays out every variable of the program.
    pub fn new(prog: &Program) -> Layout {
        let mut l = Layout {
            place: vec![0; prog.vars.len()],
            size: vec![0; prog.vars.len()],
            stride: 0,
            tls: 0,
            globals_end: GLOBAL_BASE,
            record_sizes: vec![-1; prog.records.len()],
            record_offsets: vec![Vec::new(); prog.records.len()],
        };
        for r in 0..prog.records.len() {
            l.record_size(prog, RecordId(r as u32), 0);
        }
        let mut next_global = GLOBAL_BASE;
        let mut tls = 0;
        for (i, v) in prog.vars.iter().enumerate() {
            let s = l.slots(&v.ty).max(1);
            l.size[i] = s;
            match v.kind {
                VarKind::Global => {
                    l.place[i] = next_global;
                    // One spare slot keeps a one-past-the-end pointer off the next object.
                    next_global += s + 1;
                }
                VarKind::ThreadLocal => {
                    l.place[i] = tls;
                    tls += s + 1;
                }
                _ => {}
            }
        }
        l.globals_end = next_global;
        l.tls = tls;
        let mut per_template = vec![tls; prog.templates.len()];
        for (i, v) in prog.vars.iter().enumerate() {
            if let VarKind::Local(t) | VarKind::Temp(t) = v.kind {
                let off = &mut per_template[t.index()];
                l.place[i] = *off;
                *off += l.size[i] + 1;
            }
        }
        let need = per_template.into_iter().max().unwrap_or(0).max(tls).max(1);
        l.stride = (need.max(1) as u128).next_power_of_two().max(1 << 10) as i128;
        l
    }

    fn record_size(&mut self, prog: &Program, r: RecordId, depth: u32) -> i128 {
        let i = r.0 as usize;
        if self.record_sizes[i] >= 0 {
            return self.record_sizes[i];
        }
        if depth > 64 {
            return 1;
        }
        let rec = &prog.records[i];
        let mut offs = Vec::with_capacity(rec.fields.len());
        let mut total = 0i128;
        for (_, fty) in &rec.fields {
            let s = self.slots_in(prog, fty, depth + 1).max(1);
            if rec.is_union {
                offs.push(0);
                total = total.max(s);
            } else {
                offs.push(total);
                total += s;
            }
        }
        self.record_sizes[i] = total.max(1);
        self.record_offsets[i] = offs;
        total.max(1)
    }

    fn slots_in(&mut self, prog: &Program, t: &CType, depth: u32) -> i128 {
        match t {
            CType::Array(e, n) => {
                let n = n.map(|n| n as i128).unwrap_or(UNKNOWN_ARRAY_LEN);
                self.slots_in(prog, e, depth).saturating_mul(n)
            }
            CType::Record(r) => self.record_size(prog, *r, depth),
            _ => 1,
        }
    }

    /// Slots a value of this type occupies.
    pub fn slots(&self, t: &CType) -> i128 {
        match t {
            CType::Array(e, n) => self.slots(e).saturating_mul(n.map(|n| n as i128).unwrap_or(UNKNOWN_ARRAY_LEN)),
            CType::Record(r) => self.record_sizes.get(r.0 as usize).copied().unwrap_or(1).max(1),
            _ => 1,
        }
    }

    /// Slots an element that a pointer of this type points to occupies (1 for `void*`).
    pub fn pointee_slots(&self, ptr: &CType) -> i128 {
        match ptr.pointee() {
            Some(CType::Void) | None => 1,
            Some(t) => self.slots(t).max(1),
        }
    }

    /// Offset of field `i` of record `r`.
    pub fn field_offset(&self, r: RecordId, i: u32) -> i128 {
        self.record_offsets.get(r.0 as usize).and_then(|o| o.get(i as usize)).copied().unwrap_or(0)
    }

    /// Address of a variable as seen by thread instance `thread`.
    pub fn var_addr(&self, prog: &Program, v: VarId, thread: u32) -> i128 {
        match prog.var(v).kind {
            VarKind::Global => self.place[v.index()],
            _ => self.thread_base(thread) + self.place[v.index()],
        }
    }

    /// First address of a thread instance's block.
    pub fn thread_base(&self, thread: u32) -> i128 {
        LOCAL_BASE + self.stride * thread as i128
    }

    /// Address of the `k`-th object thread `thread` allocates.
    pub fn heap_addr(thread: u32, k: i128) -> i128 {
        HEAP_BASE + HEAP_THREAD_STRIDE * thread as i128 + HEAP_OBJECT_SLOTS * k
    }

    /// Each thread's block size and, at the start of each block, how much of it is its
    /// thread-local globals; `None` when the program has none.
    pub fn thread_locals(&self) -> Option<(i128, i128)> {
        (self.tls > 0).then_some((self.stride, self.tls))
    }

    /// Whether memory at this address starts as zero (static storage) rather than arbitrary.
    pub fn initially_zero(&self, addr: i128) -> bool {
        if addr < LOCAL_BASE {
            return true;
        }
        if addr < HEAP_BASE {
            let off = (addr - LOCAL_BASE) % self.stride;
            return off < self.tls;
        }
        false
    }

    /// The end of the global region (addresses below it, from [`GLOBAL_BASE`], are globals).
    pub fn globals_end(&self) -> i128 {
        self.globals_end
    }

    /// A readable name for an address: `g`, `t_ids[3]`, `T2:x`, `heap(T1#0)+2`.
    pub fn describe(&self, prog: &Program, addr: i128) -> String {
        self.describe_in(prog, addr, &|_| None)
    }

    /// [`Layout::describe`], knowing the template of some thread instances: thread blocks
    /// of different templates reuse offsets, so only the owner's locals can name a slot.
    pub fn describe_in(&self, prog: &Program, addr: i128, template_of: &dyn Fn(i128) -> Option<TemplateId>) -> String {
        if addr == 0 {
            return "NULL".into();
        }
        if addr >= HEAP_BASE {
            let rel = addr - HEAP_BASE;
            let t = rel / HEAP_THREAD_STRIDE;
            let k = (rel % HEAP_THREAD_STRIDE) / HEAP_OBJECT_SLOTS;
            let off = rel % HEAP_OBJECT_SLOTS;
            return if off == 0 { format!("heap(T{t}#{k})") } else { format!("heap(T{t}#{k})+{off}") };
        }
        let (thread, off, global) = if addr >= LOCAL_BASE { ((addr - LOCAL_BASE) / self.stride, (addr - LOCAL_BASE) % self.stride, false) } else { (0, addr, true) };
        for (i, v) in prog.vars.iter().enumerate() {
            let is_global = matches!(v.kind, VarKind::Global);
            if is_global != global {
                continue;
            }
            if let (VarKind::Local(t) | VarKind::Temp(t), Some(owner)) = (v.kind, template_of(thread)) {
                if t != owner {
                    continue;
                }
            }
            let start = self.place[i];
            if off >= start && off < start + self.size[i] {
                let path = self.path_in(prog, &v.ty, off - start);
                return if global { format!("{}{}", v.name, path) } else { format!("T{thread}:{}{}", v.name, path) };
            }
        }
        format!("@{addr}")
    }

    fn path_in(&self, prog: &Program, t: &CType, off: i128) -> String {
        match t {
            CType::Array(e, _) => {
                let s = self.slots(e).max(1);
                format!("[{}]{}", off / s, self.path_in(prog, e, off % s))
            }
            CType::Record(r) => {
                let rec = &prog.records[r.0 as usize];
                for (i, (name, fty)) in rec.fields.iter().enumerate().rev() {
                    let fo = self.field_offset(*r, i as u32);
                    if off >= fo && off < fo + self.slots(fty) {
                        return format!(".{}{}", name, self.path_in(prog, fty, off - fo));
                    }
                }
                format!("+{off}")
            }
            _ if off == 0 => String::new(),
            _ => format!("+{off}"),
        }
    }
}
