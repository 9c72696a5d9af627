//! Exact models of the C library and compiler built-ins that programs use: memory and string
//! functions, string literals, `calloc`, `realloc`, atomics, semaphores, read-write locks,
//! barriers, thread-specific keys. Each is lowered to plain IR (loads, stores,
//! branches, atomic sections), so that COARSEN, the bounded search and the interpreter all
//! execute the same exact semantics. Where an exact lowering is not possible (a size that is
//! not a compile-time constant, an object whose layout is not known), the fallback is a havoc
//! of every scalar the call can write, recorded as an [`Approximation`]; a havoc that cannot
//! name every such scalar is recorded as incomplete, so that no proof rests on it.

use super::expr::{branch_conditions, Val};
use super::{Fatal, Lowerer};
use crate::ir::*;
use lang_c::ast::*;
use lang_c::span::{Node, Span as LSpan};

/// How many characters the string functions follow one by one when the object's length is not
/// known; a longer string makes the result an over-approximation.
const STRING_LIMIT: u64 = 32;
/// The most scalars a memory function writes one by one.
const LEAF_LIMIT: usize = 4096;
/// The most steps added to havoc escaped objects at the calls of undefined functions.
const SPLICE_LIMIT: usize = 200_000;

/// duet-rs's own `<stdatomic.h>`, which maps C11 atomics onto the built-ins modelled here.
const STDATOMIC_H: &str = include_str!("../include/stdatomic.h");

/// A directory holding the headers the front-end replaces, written once per content (to a
/// temporary name, then renamed, so that concurrent runs never read half a file); `None`
/// when it cannot be written, and the system's headers are used.
pub(in crate::frontend) fn model_headers() -> Option<std::path::PathBuf> {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    STDATOMIC_H.hash(&mut h);
    let dir = std::env::temp_dir().join(format!("duet-rs-headers-{:016x}", h.finish()));
    let file = dir.join("stdatomic.h");
    if std::fs::read_to_string(&file).is_ok_and(|t| t == STDATOMIC_H) {
        return Some(dir);
    }
    std::fs::create_dir_all(&dir).ok()?;
    let tmp = dir.join(format!("stdatomic.h.{}", std::process::id()));
    std::fs::write(&tmp, STDATOMIC_H).ok()?;
    std::fs::rename(&tmp, &file).ok()?;
    Some(dir)
}

/// Whether `name` is a library function or built-in modelled here.
/// Linux allocators modelled when the program does not define them (see
/// [`Lowerer::kernel_alloc`]).
pub(super) fn is_kernel_alloc(name: &str) -> bool {
    matches!(name, "kmalloc" | "__kmalloc" | "kzalloc" | "kcalloc" | "kmalloc_array" | "vmalloc" | "vzalloc")
}

/// What an allocation's arguments say of its object: the element type and constant count a
/// `sizeof` gives, and which argument is the count.
struct Sized {
    elem: Option<CType>,
    count: Option<i128>,
    count_arg: Option<usize>,
}

pub(super) fn is_modelled(name: &str) -> bool {
    matches!(
        name,
        "memset"
            | "memcpy"
            | "memmove"
            | "memcmp"
            | "strlen"
            | "strcmp"
            | "strncmp"
            | "strcpy"
            | "strncpy"
            | "strcat"
            | "strchr"
            | "__builtin_memset"
            | "__builtin_memcpy"
            | "__builtin_memmove"
            | "__builtin_memcmp"
            | "__builtin_strlen"
            | "__builtin_strcmp"
            | "__builtin_strncmp"
            | "__builtin_strcpy"
            | "__builtin_strchr"
            | "__sync_synchronize"
            | "__atomic_thread_fence"
            | "__atomic_signal_fence"
            | "__sync_lock_release"
            | "__sync_lock_test_and_set"
            | "__sync_bool_compare_and_swap"
            | "__sync_val_compare_and_swap"
            | "__atomic_load_n"
            | "__atomic_store_n"
            | "__atomic_exchange_n"
            | "__atomic_compare_exchange_n"
            | "__atomic_load"
            | "__atomic_store"
            | "__atomic_exchange"
            | "__atomic_compare_exchange"
            | "__atomic_test_and_set"
            | "__atomic_clear"
    ) || rmw_op(name).is_some()
}

/// Names whose synchronisation the IR does not model: a call makes every verdict `unknown`
/// rather than letting a missing block or wake-up produce a wrong answer. `pthread_cancel` is
/// one: the target may stop at a cancellation point and its join read `PTHREAD_CANCELED`,
/// executions the IR, which would run it to its end, does not have.
pub(super) fn is_unmodelled_sync(name: &str) -> bool {
    ((name.starts_with("pthread_barrier") || name.starts_with("pthread_key_")) && !is_thread_model(name)) || name == "pthread_cancel"
}

/// Barriers, thread-specific keys and `realloc`, modelled in [`Lowerer::thread_model`].
pub(super) fn is_thread_model(name: &str) -> bool {
    matches!(
        name,
        "pthread_barrier_init"
            | "pthread_barrier_wait"
            | "pthread_barrier_destroy"
            | "pthread_barrierattr_init"
            | "pthread_barrierattr_destroy"
            | "pthread_barrierattr_setpshared"
            | "pthread_key_create"
            | "pthread_key_delete"
            | "pthread_getspecific"
            | "pthread_setspecific"
            | "realloc"
            | "pthread_mutexattr_settype"
    )
}

/// Mutex kinds whose owner blocks when it locks again, as the IR's mutexes do: glibc's
/// `PTHREAD_MUTEX_NORMAL` (also `DEFAULT`) and `PTHREAD_MUTEX_ADAPTIVE_NP`. A recursive mutex
/// lets its owner lock again and an error-checking one returns `EDEADLK`, so a model that
/// blocks would lose executions.
pub(super) fn mutex_kind_blocks(kind: i128) -> bool {
    matches!(kind, 0 | 3)
}

/// glibc's `PTHREAD_MUTEX_ERRORCHECK`: exact in the IR except that its owner's relock returns
/// `EDEADLK`, which `passes` rules out or reports.
pub(super) const MUTEX_ERRORCHECK: i128 = 2;

/// How many keys a program can create (glibc's `PTHREAD_KEYS_MAX`); one more fails with
/// `EAGAIN`.
const KEYS_MAX: u64 = 1024;
/// `PTHREAD_BARRIER_SERIAL_THREAD` in glibc.
const BARRIER_SERIAL_THREAD: i128 = -1;
const EINVAL: i128 = 22;
const EAGAIN: i128 = 11;

/// Semaphores, read-write locks and `pthread_once`, modelled here on a counter.
pub(super) fn is_counter_sync(name: &str) -> bool {
    matches!(
        name,
        "sem_init"
            | "sem_wait"
            | "sem_trywait"
            | "sem_timedwait"
            | "sem_post"
            | "sem_destroy"
            | "sem_getvalue"
            | "pthread_rwlock_init"
            | "pthread_rwlock_destroy"
            | "pthread_rwlock_rdlock"
            | "pthread_rwlock_wrlock"
            | "pthread_rwlock_tryrdlock"
            | "pthread_rwlock_trywrlock"
            | "pthread_rwlock_timedrdlock"
            | "pthread_rwlock_timedwrlock"
            | "pthread_rwlock_unlock"
            | "pthread_once"
    )
}

/// A read-modify-write built-in: its operator and whether it returns the new value.
fn rmw_op(name: &str) -> Option<(BinOp, bool, bool)> {
    let (rest, new) = if let Some(r) = name.strip_prefix("__sync_fetch_and_") {
        (r, false)
    } else if let Some(r) = name.strip_prefix("__atomic_fetch_") {
        (r, false)
    } else if let Some(r) = name.strip_prefix("__sync_").and_then(|r| r.strip_suffix("_and_fetch")) {
        (r, true)
    } else if let Some(r) = name.strip_prefix("__atomic_").and_then(|r| r.strip_suffix("_fetch")) {
        (r, true)
    } else {
        return None;
    };
    // The third field marks `nand`: `~(old & v)`.
    Some(match rest {
        "add" => (BinOp::Add, new, false),
        "sub" => (BinOp::Sub, new, false),
        "and" => (BinOp::BitAnd, new, false),
        "or" => (BinOp::BitOr, new, false),
        "xor" => (BinOp::BitXor, new, false),
        "nand" => (BinOp::BitAnd, new, true),
        _ => return None,
    })
}

/// The memory a pointer argument designates, element by element.
#[derive(Clone, Debug)]
struct Obj {
    /// How element `i` is reached.
    base: Base,
    /// The element type.
    elem: CType,
    /// Elements known to exist from the first one on (none for a bare pointer).
    len: Option<u64>,
}

#[derive(Clone, Debug)]
enum Base {
    /// Elements `arr[start + i]` of an array lvalue.
    Array(Lval, i128),
    /// The single object, then memory beyond it.
    Single(Lval),
    /// `*(p + i)`.
    Ptr(Expr),
}

/// The step of a call of a function without a definition.
pub(super) struct ExternalStep {
    /// The location of the call's own step (its result).
    at: LocId,
    /// The call's approximation.
    ap: ApproxId,
    name: String,
    span: Span,
    /// The objects it havocs through its arguments.
    written: Vec<VarId>,
    /// Its result holds a pointer.
    returns_pointer: bool,
    /// It received an integer as wide as a pointer, which may be a converted address.
    wide_integer_arg: bool,
}

/// A scalar inside an object: where it is, its type, its byte offset and size.
#[derive(Clone)]
struct Leaf {
    lv: Lval,
    ty: CType,
    off: u64,
    size: u64,
    /// A bit-field: its bits need not start at a byte boundary, so a byte pattern seen
    /// through it is not the pattern's low bits.
    bit_field: bool,
}

fn long() -> CType {
    CType::Int(IntTy { bits: 64, signed: true }, "long".into())
}

fn idx(i: i128) -> Expr {
    Expr::Const(i, Ty::Int(IntTy { bits: 64, signed: true }))
}

impl Obj {
    /// Element `i` as an lvalue.
    fn at(&self, i: Expr) -> Lval {
        match &self.base {
            Base::Array(lv, start) => {
                let i = match i {
                    Expr::Const(k, _) => idx(k + start),
                    e if *start == 0 => e,
                    e => Expr::Binary(BinOp::Add, Box::new(e), Box::new(idx(*start)), Ty::Int(IntTy { bits: 64, signed: true })),
                };
                Lval::Index(Box::new(lv.clone()), Box::new(i))
            }
            Base::Single(lv) => match i {
                Expr::Const(0, _) => lv.clone(),
                i => Lval::Deref(Box::new(Expr::Binary(BinOp::Add, Box::new(Expr::AddrOf(lv.clone())), Box::new(i), Ty::Ptr)), self.elem.clone()),
            },
            Base::Ptr(p) => match i {
                Expr::Const(0, _) => Lval::Deref(Box::new(p.clone()), self.elem.clone()),
                i => Lval::Deref(Box::new(Expr::Binary(BinOp::Add, Box::new(p.clone()), Box::new(i), Ty::Ptr)), self.elem.clone()),
            },
        }
    }

    /// The address of element `i`.
    fn addr(&self, i: Expr) -> Expr {
        Expr::AddrOf(self.at(i))
    }

    /// Whether its elements are characters.
    fn is_chars(&self) -> bool {
        matches!(&self.elem, CType::Int(i, _) if i.bits == 8)
    }
}

impl<'a> Lowerer<'a> {
    /// Records an over-approximation and returns its id.
    pub(super) fn approximation(&self, what: impl Into<String>, span: Span, covers: bool, control: bool) -> ApproxId {
        let mut aps = self.approximations.borrow_mut();
        aps.push(Approximation { span, what: what.into(), covers, control });
        ApproxId(aps.len() as u32 - 1)
    }

    /// Any value of `ty`, standing for what the IR does not model exactly.
    pub(super) fn havoc(&self, ty: Ty, what: impl Into<String>, span: Span) -> Expr {
        Expr::Havoc(ty, self.approximation(what, span, true, false))
    }

    /// Where the last emitted step came from: the best position for an approximation made
    /// where no span is at hand.
    pub(super) fn last_span(&self) -> Span {
        self.locs.last().map(|l| l.span).unwrap_or_default()
    }

    /// Lowers a call of a modelled library function or built-in.
    pub(super) fn library_call(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let name = name.strip_prefix("__builtin_").unwrap_or(name);
        let need = |n: usize| args.len() < n;
        let arity = match name {
            "memset"
            | "memcpy"
            | "memmove"
            | "memcmp"
            | "strncmp"
            | "strncpy"
            | "__sync_val_compare_and_swap"
            | "__sync_bool_compare_and_swap"
            | "__atomic_store_n"
            | "__atomic_exchange_n"
            | "__atomic_load"
            | "__atomic_store" => 3,
            "strcmp" | "strcpy" | "strcat" | "strchr" | "__sync_lock_test_and_set" | "__atomic_load_n" | "__atomic_test_and_set" | "__atomic_clear" => 2,
            "strlen" | "__sync_lock_release" => 1,
            "__atomic_exchange" => 4,
            "__atomic_compare_exchange_n" | "__atomic_compare_exchange" => 6,
            _ if rmw_op(name).is_some() => 2,
            _ => 0,
        };
        if need(arity) {
            return Err(self.error(span_l, format!("`{name}` expects {arity} arguments, found {}", args.len())));
        }
        match name {
            "memset" => self.memset(args, span),
            "memcpy" | "memmove" => self.memcpy(args, span, name == "memmove"),
            "memcmp" => self.memcmp(args, span),
            "strlen" => {
                let s = self.object(&args[0])?;
                let r = self.strlen_of(&s, span);
                Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: self.size_t() }))
            }
            "strcmp" | "strncmp" => self.strcmp(args, span, name == "strncmp"),
            "strcpy" | "strncpy" | "strcat" => self.strcpy(args, span, name),
            "strchr" => self.strchr(args, span),
            "__sync_synchronize" | "__atomic_thread_fence" | "__atomic_signal_fence" => {
                // Every step is sequentially consistent already.
                for a in args {
                    self.effect(a)?;
                }
                Ok(None)
            }
            _ => self.atomic_builtin(name, args, span),
        }
    }

    fn size_t(&self) -> CType {
        let bits = if self.dm() == DataModel::ILP32 { 32 } else { 64 };
        CType::Int(IntTy { bits, signed: false }, "unsigned long".into())
    }

    /// The memory a pointer argument designates (casts are looked through: the object keeps
    /// its declared type).
    fn object(&mut self, a: &'a Node<Expression>) -> Result<Obj, Fatal> {
        let mut inner = a;
        while let Expression::Cast(c) = &inner.node {
            inner = &c.node.expression;
        }
        let v = self.value(inner)?;
        Ok(self.object_of(v))
    }

    fn object_of(&self, v: Val) -> Obj {
        if let Expr::AddrOf(lv) = &v.e {
            if let CType::Array(elem, n) = self.lv_type(lv) {
                return Obj { base: Base::Array(lv.clone(), 0), elem: *elem, len: n };
            }
            if let Lval::Index(b, k) = lv {
                if let (CType::Array(elem, n), Some(k)) = (self.lv_type(b), k.as_const()) {
                    let len = n.map(|n| (n as i128 - k).max(0) as u64);
                    return Obj { base: Base::Array((**b).clone(), k), elem: *elem, len };
                }
            }
            let ty = self.lv_type(lv);
            return Obj { base: Base::Single(lv.clone()), elem: ty, len: Some(1) };
        }
        let elem = match &v.ty {
            CType::Pointer(t) | CType::Array(t, _) => (**t).clone(),
            _ => CType::Void,
        };
        Obj { base: Base::Ptr(v.e), elem, len: None }
    }

    /// The C type of an lvalue built during lowering.
    fn lv_type(&self, lv: &Lval) -> CType {
        match lv {
            Lval::Var(v) => self.vars[v.index()].ty.clone(),
            Lval::Deref(_, t) => t.clone(),
            Lval::Index(b, _) => match self.lv_type(b) {
                CType::Array(e, _) | CType::Pointer(e) => *e,
                other => other,
            },
            Lval::Field(_, r, i) => self.types.records[r.0 as usize].fields[*i as usize].1.clone(),
        }
    }

    /// The scalars of an object of type `ty` at byte offset `off`; false when its layout is
    /// not known or it has too many.
    fn leaves(&self, lv: Lval, ty: &CType, off: u64, out: &mut Vec<Leaf>) -> bool {
        if out.len() > LEAF_LIMIT {
            return false;
        }
        match ty {
            CType::Array(e, Some(n)) => {
                let es = self.types.size_of(e);
                for i in 0..*n {
                    if !self.leaves(Lval::Index(Box::new(lv.clone()), Box::new(idx(i as i128))), e, off + i * es, out) {
                        return false;
                    }
                }
                true
            }
            CType::Record(r) => {
                let rec = &self.types.records[r.0 as usize];
                let layout = self.types.record_layout(*r);
                for (i, (_, ft)) in rec.fields.iter().enumerate() {
                    let bit = layout.bit_offsets[i];
                    let field = Lval::Field(Box::new(lv.clone()), *r, i as u32);
                    if let Some(w) = self.types.field_bits(*r, i) {
                        if w > 0 {
                            // The bytes the bit-field's bits occupy.
                            let size = (bit % 8 + w).div_ceil(8);
                            out.push(Leaf { lv: field, ty: ft.clone(), off: off + bit / 8, size, bit_field: true });
                        }
                        continue;
                    }
                    if !self.leaves(field, ft, off + bit / 8, out) {
                        return false;
                    }
                }
                true
            }
            CType::Array(_, None) | CType::Void | CType::Function => false,
            // A lock or library object: its state is not a number the program reads.
            CType::Mutex | CType::Opaque(_) => true,
            t => {
                out.push(Leaf { lv, ty: t.clone(), off, size: self.types.size_of(t), bit_field: false });
                true
            }
        }
    }

    /// The scalars of bytes `[0, n)` of an object: those wholly inside, and whether some lie
    /// only partly inside. `None` when the layout is not known.
    fn leaves_upto(&self, o: &Obj, n: u64) -> Option<(Vec<Leaf>, Vec<Leaf>)> {
        let es = self.types.size_of(&o.elem);
        if es == 0 || matches!(o.elem, CType::Void | CType::Function) || n / es > LEAF_LIMIT as u64 {
            return None;
        }
        let (mut whole, mut part) = (Vec::new(), Vec::new());
        let mut i = 0u64;
        while i * es < n {
            let mut ls = Vec::new();
            if !self.leaves(o.at(idx(i as i128)), &o.elem, i * es, &mut ls) {
                return None;
            }
            for l in ls {
                if l.off + l.size <= n {
                    whole.push(l);
                } else if l.off < n {
                    part.push(l);
                }
            }
            i += 1;
        }
        Some((whole, part))
    }

    /// Every scalar of the whole object, when its extent is known.
    fn all_leaves(&self, o: &Obj) -> Option<Vec<Leaf>> {
        let n = o.len? * self.types.size_of(&o.elem);
        self.leaves_upto(o, n).map(|(mut w, p)| {
            w.extend(p);
            w
        })
    }

    /// A step writing an arbitrary value, from approximation `ap`, to each scalar.
    fn havocs(&self, leaves: Vec<Leaf>, ap: ApproxId) -> Vec<Action> {
        leaves.into_iter().map(|l| Action::Assign(l.lv, Expr::Havoc(l.ty.scalar(self.dm()), ap))).collect()
    }

    /// Whether a variable is a string literal's array, which no call may write (that would be
    /// undefined behaviour).
    fn is_literal(&self, v: VarId) -> bool {
        self.literals.values().any(|&l| l == v)
    }

    /// Writes an arbitrary value to each scalar (a sound havoc of memory the call may write).
    fn havoc_leaves(&mut self, leaves: Vec<Leaf>, what: &str, span: Span) {
        if leaves.is_empty() {
            return;
        }
        let ap = self.approximation(what.to_string(), span, true, false);
        for a in self.havocs(leaves, ap) {
            self.emit(a, span);
        }
    }

    /// A call whose writes cannot be named: no proof may rest on the program.
    fn incomplete(&mut self, what: String, span: Span) {
        self.approximation(what, span, false, false);
    }

    /// What an unknown function may do with its arguments: write through each pointer, and
    /// through an address handed over in any other form, which the havoc cannot name.
    pub(super) fn havoc_arguments(&mut self, vals: Vec<Val>, ap: ApproxId, name: &str, span: Span) {
        for v in vals {
            match &v.ty {
                CType::Pointer(_) | CType::Array(..) => self.havoc_through(v, ap, name, span),
                t if self.holds_pointer(t) => self.incomplete(format!("a call of `{name}`, which has no definition, with a structure holding pointers passed by value"), span),
                t if t.is_scalar() && self.carries_address(&v.e) => self.incomplete(format!("a call of `{name}`, which has no definition, with an address passed as an integer"), span),
                _ => {}
            }
        }
    }

    /// Whether an object of this type stores a pointer.
    fn holds_pointer(&self, ty: &CType) -> bool {
        match ty {
            CType::Pointer(_) | CType::Function => true,
            CType::Array(e, _) => self.holds_pointer(e),
            CType::Record(r) => self.types.records[r.0 as usize].fields.iter().any(|(_, t)| self.holds_pointer(t)),
            _ => false,
        }
    }

    /// Whether an expression's value may be computed from an address (a pointer converted to
    /// an integer): the points-to model does not follow addresses through integers.
    fn carries_address(&self, e: &Expr) -> bool {
        match e {
            Expr::AddrOf(_) | Expr::Cast(Ty::Ptr, _) | Expr::Nondet(Ty::Ptr) | Expr::Havoc(Ty::Ptr, _) | Expr::Binary(_, _, _, Ty::Ptr) => true,
            Expr::Load(lv) => matches!(self.lv_type(lv), CType::Pointer(_)),
            Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => false,
            Expr::Unary(_, x, _) | Expr::Cast(_, x) => self.carries_address(x),
            Expr::Binary(_, a, b, _) => self.carries_address(a) || self.carries_address(b),
        }
    }

    /// What an unknown function may do with a pointer argument: write every scalar of the
    /// object it points into, the whole object, since pointer arithmetic (and `container_of`)
    /// reaches all of it from any part. A pointer stored there leads to more memory the havoc
    /// cannot name, as does a pointer into memory of unknown extent or a function it may call:
    /// those make it incomplete.
    pub(super) fn havoc_through(&mut self, v: Val, ap: ApproxId, name: &str, span: Span) {
        let what = |s: &str| format!("a call of `{name}`, which has no definition, {s}");
        let is_function = matches!(&v.ty, CType::Pointer(t) if matches!(**t, CType::Function)) || matches!(v.e, Expr::Const(k, _) if crate::ir::memory::function_index(k).is_some());
        if is_function {
            self.incomplete(what("with a function it may call"), span);
            return;
        }
        let mut e = &v.e;
        while let Expr::Cast(Ty::Ptr, inner) = e {
            e = inner;
        }
        let Some(root) = (match e {
            Expr::AddrOf(lv) => lv.root_var(),
            _ => None,
        }) else {
            self.incomplete(what("with a pointer into memory of unknown extent"), span);
            return;
        };
        if self.is_literal(root) {
            return;
        }
        let Some(leaves) = self.object_leaves(root) else {
            self.incomplete(what("with a pointer to an object whose layout is not known"), span);
            return;
        };
        if leaves.iter().any(|l| matches!(l.ty, CType::Pointer(_))) {
            self.incomplete(what("with access to pointers it may follow"), span);
        }
        for a in self.havocs(leaves, ap) {
            self.emit(a, span);
        }
        if !self.escaped.contains(&root) {
            self.escaped.push(root);
        }
        self.step_writes.push(root);
    }

    /// Every scalar of a variable; `None` when its layout is not known.
    fn object_leaves(&self, v: VarId) -> Option<Vec<Leaf>> {
        let mut out = Vec::new();
        self.leaves(Lval::Var(v), &self.vars[v.index()].ty, 0, &mut out).then_some(out)
    }

    /// A function the program declares but does not define lives in another translation
    /// unit, which may write every global with external linkage by name: each one's scalars
    /// are havocked at the call (a global too large to spell out makes the havoc incomplete).
    pub(super) fn havoc_linked_globals(&mut self, ap: ApproxId, name: &str, span: Span) {
        const MAX_LEAVES: usize = 256;
        for v in self.linked_globals.clone() {
            if self.step_writes.contains(&v) || self.is_literal(v) {
                continue;
            }
            match self.object_leaves(v) {
                Some(leaves) if leaves.len() <= MAX_LEAVES => {
                    for a in self.havocs(leaves, ap) {
                        self.emit(a, span);
                    }
                    self.step_writes.push(v);
                }
                _ => {
                    let g = self.vars[v.index()].name.clone();
                    self.incomplete(format!("the global `{g}`, which `{name}` (declared but defined in no file given) may write"), span);
                }
            }
        }
    }

    /// A function defined in another translation unit may also call any function of the
    /// program with external linkage, by name, and any whose address the program takes,
    /// through a global it reads: their assertions, locks and writes are not in the havoc of
    /// the globals, so such a call leaves the approximation incomplete.
    pub(super) fn calls_linked_functions(&mut self, name: &str, span: Span) {
        let callable = self.linked_functions.first().map(|f| format!("`{f}` (not `static`)")).or_else(|| self.fn_names.first().map(|f| format!("`{f}` (whose address it takes)")));
        if let Some(f) = callable {
            let what = format!("a call of `{name}`, which has no definition, in a program with a function {f} that code elsewhere may call");
            self.incomplete(what, span);
        }
    }

    /// Records the step of a call of an undefined function, with the objects it havocked.
    pub(super) fn external_step(&mut self, at: LocId, ap: ApproxId, name: &str, span: Span, ret: &CType, wide_integer_arg: bool) {
        let written = std::mem::take(&mut self.step_writes);
        let returns_pointer = self.holds_pointer(ret);
        self.external_steps.push(ExternalStep { at, ap, name: name.to_string(), span, written, returns_pointer, wide_integer_arg });
    }

    /// Once the program is lowered: an object whose address escaped to an undefined function
    /// may be written by every call of one (the callee may have kept the address), so each
    /// such call havocs it too. What the IR cannot name that way (a local of another thread,
    /// an escaped object behind a returned pointer) makes the approximation incomplete.
    pub(super) fn havoc_escaped(&mut self) {
        let steps = std::mem::take(&mut self.external_steps);
        if !steps.is_empty() {
            let mut known: Vec<VarId> = self.escaped.iter().chain(&self.linked_globals).copied().collect();
            known.sort();
            known.dedup();
            self.known_to_unknown_code = known;
        }
        // An address converted to an integer (anywhere, perhaps stored first) and handed over
        // as that integer reaches an object the havoc cannot name.
        if self.address_as_integer.get() {
            if let Some(s) = steps.iter().find(|s| s.wide_integer_arg) {
                let what = format!("a call of `{}`, which has no definition, with an integer as wide as a pointer, in a program that converts addresses to integers", s.name);
                self.incomplete(what, s.span);
            }
        }
        if self.escaped.is_empty() || steps.is_empty() {
            return;
        }
        if let Some(s) = steps.iter().find(|s| s.returns_pointer) {
            let what = format!("the pointer `{}` returns, which may point to an object whose address a function without a definition received", s.name);
            self.incomplete(what, s.span);
        }
        let mut budget = SPLICE_LIMIT;
        for v in self.escaped.clone() {
            let owner = match self.vars[v.index()].kind {
                VarKind::Global => None,
                VarKind::Local(t) | VarKind::Temp(t) => Some(t),
                VarKind::ThreadLocal => Some(TemplateId(u32::MAX)),
            };
            let name = self.vars[v.index()].name.clone();
            // A local exists once per instance of its template: a call in another template,
            // or in another instance, cannot name the copy that escaped.
            if let Some(t) = owner {
                let single = t == TemplateId(0) && steps.iter().all(|s| self.locs[s.at.index()].template == t);
                if !single {
                    let s = steps.iter().find(|s| s.written.contains(&v)).unwrap_or(&steps[0]);
                    self.incomplete(format!("the address of `{name}`, a thread's own object, which a function without a definition received and another call may write"), s.span);
                    continue;
                }
            }
            let Some(leaves) = self.object_leaves(v) else { continue };
            for s in &steps {
                if s.written.contains(&v) {
                    continue;
                }
                if leaves.len() > budget {
                    self.incomplete(format!("`{name}`, whose address a function without a definition received, at too many calls to havoc"), s.span);
                    break;
                }
                budget -= leaves.len();
                let acts = self.havocs(leaves.clone(), s.ap);
                self.splice_after(s.at, acts, s.span);
            }
        }
    }

    /// For the race check: `free` (and `realloc` of a live object) writes the whole object it
    /// releases, so that a release races with any unprotected access to it. Every scalar of
    /// the pointee type is written (a null pointer writes nothing); a pointee of unknown type
    /// or extent makes the approximation incomplete, which leaves every location `unknown`.
    pub(super) fn release_write(&mut self, v: Val, name: &str, span: Span) {
        let pointee = match &v.ty {
            CType::Pointer(t) => (**t).clone(),
            _ => CType::Void,
        };
        let p = self.temp(v.ty.clone());
        self.emit(Action::Assign(Lval::Var(p), v.e), span);
        let mut leaves = Vec::new();
        let known = !matches!(pointee, CType::Void | CType::Function) && self.leaves(Lval::Deref(Box::new(Expr::Load(Lval::Var(p))), pointee.clone()), &pointee, 0, &mut leaves);
        if !known {
            self.incomplete(format!("`{name}` of a pointer to an object of unknown type, which it writes as a whole"), span);
            return;
        }
        let null = self.branch(Expr::Binary(BinOp::Ne, Box::new(Expr::Load(Lval::Var(p))), Box::new(Expr::Const(0, Ty::Ptr)), Ty::INT), span);
        self.havoc_leaves(leaves, &format!("`{name}`'s release of the object"), span);
        self.cur.extend(null);
    }

    /// Inserts a chain of steps right after location `at`, in its template.
    fn splice_after(&mut self, at: LocId, actions: Vec<Action>, span: Span) {
        let saved_tpl = self.tpl;
        let saved_cur = std::mem::take(&mut self.cur);
        self.tpl = self.locs[at.index()].template;
        let succs = std::mem::take(&mut self.locs[at.index()].succs);
        self.cur = vec![at];
        for a in actions {
            self.emit(a, span);
        }
        let last = std::mem::take(&mut self.cur);
        for s in succs {
            self.connect(&last, s);
        }
        self.tpl = saved_tpl;
        self.cur = saved_cur;
    }

    /// A single atomic load or store: one action, atomic as it is; for the race check (which
    /// tells atomic accesses from plain ones by their sections) it gets a section of its own.
    fn atomic_access(&mut self, a: Action, span: Span) {
        if self.opts.for_races {
            self.emit(Action::AtomicBegin, span);
            self.emit(a, span);
            self.emit(Action::AtomicEnd, span);
        } else {
            self.emit(a, span);
        }
    }

    /// Semaphores, read-write locks and `pthread_once` on the integer each object is: a
    /// blocking step is an atomic section that starts by waiting for its condition.
    pub(super) fn counter_sync(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let Some(obj) = args.first() else { return Err(self.error(span_l, format!("`{name}` expects arguments"))) };
        let (lv, _) = self.atomic_target(obj)?;
        let lv = self.stabilize(lv, span);
        let int = CType::int();
        let r = self.temp(int.clone());
        let cur = self.temp(int.clone());
        let load = |c: VarId| Expr::Load(Lval::Var(c));
        let cmp = |op: BinOp, a: Expr, k: i128| Expr::Binary(op, Box::new(a), Box::new(Expr::int(k)), Ty::INT);
        let add = |a: Expr, k: i128| Expr::Binary(BinOp::Add, Box::new(a), Box::new(Expr::int(k)), Ty::INT);
        // Waits for `cond` on the object's value, then stores `next` of it: one atomic step.
        let wait_then = |s: &mut Self, cond: (BinOp, i128), next: Option<Expr>| {
            s.emit(Action::AtomicBegin, span);
            s.emit(Action::Assign(Lval::Var(cur), Expr::Load(lv.clone())), span);
            s.emit(Action::Assume(cmp(cond.0, load(cur), cond.1)), span);
            if let Some(n) = next {
                s.emit(Action::Assign(lv.clone(), n), span);
            }
            s.emit(Action::AtomicEnd, span);
        };
        // Either takes the object as `wait_then` does (result 0) or gives up with `fail`: the
        // try and timed variants; a timed wait may also give up when the object is free (the
        // time ran out first), an input.
        let try_or = |s: &mut Self, cond: (BinOp, i128), next: Expr, fail: i128, timed: bool| {
            let here = std::mem::take(&mut s.cur);
            s.cur = here.clone();
            wait_then(s, cond, Some(next));
            s.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
            let took = std::mem::take(&mut s.cur);
            s.cur = here;
            if !timed {
                let (c, _) = branch_conditions(cmp(cond.0, Expr::Load(lv.clone()), cond.1), Ty::INT);
                s.emit(Action::Assume(Expr::Unary(UnOp::Not, Box::new(c), Ty::INT)), span);
            }
            s.emit(Action::Assign(Lval::Var(r), Expr::int(fail)), span);
            s.cur.extend(took);
        };
        match name {
            "sem_init" | "pthread_rwlock_init" => {
                let v = match args.get(2) {
                    Some(v) if name == "sem_init" => {
                        self.effect(&args[1])?;
                        let v = self.value(v)?;
                        self.convert(v, &int)
                    }
                    _ => {
                        for a in &args[1..] {
                            self.effect(a)?;
                        }
                        Expr::int(0)
                    }
                };
                self.emit(Action::Assign(lv, v), span);
            }
            "sem_destroy" | "pthread_rwlock_destroy" => {}
            "sem_post" => {
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(cur), Expr::Load(lv.clone())), span);
                self.emit(Action::Assign(lv.clone(), add(load(cur), 1)), span);
                self.emit(Action::AtomicEnd, span);
            }
            "sem_wait" => wait_then(self, (BinOp::Gt, 0), Some(add(load(cur), -1))),
            "sem_trywait" => {
                try_or(self, (BinOp::Gt, 0), add(load(cur), -1), -1, false);
                return Ok(Some(Val { e: load(r), ty: int }));
            }
            "sem_timedwait" => {
                self.effect(&args[1])?;
                try_or(self, (BinOp::Gt, 0), add(load(cur), -1), -1, true);
                return Ok(Some(Val { e: load(r), ty: int }));
            }
            "sem_getvalue" => {
                if let Some(out) = args.get(1) {
                    let (o, _) = self.atomic_target(out)?;
                    self.emit(Action::Assign(Lval::Var(cur), Expr::Load(lv)), span);
                    self.emit(Action::Assign(o, load(cur)), span);
                }
            }
            "pthread_rwlock_rdlock" => wait_then(self, (BinOp::Ge, 0), Some(add(load(cur), 1))),
            "pthread_rwlock_wrlock" => wait_then(self, (BinOp::Eq, 0), Some(Expr::int(-1))),
            "pthread_rwlock_tryrdlock" | "pthread_rwlock_timedrdlock" => {
                let timed = name.contains("timed");
                if timed {
                    self.effect(&args[1])?;
                }
                try_or(self, (BinOp::Ge, 0), add(load(cur), 1), if timed { 110 } else { 16 }, timed);
                return Ok(Some(Val { e: load(r), ty: int }));
            }
            "pthread_rwlock_trywrlock" | "pthread_rwlock_timedwrlock" => {
                let timed = name.contains("timed");
                if timed {
                    self.effect(&args[1])?;
                }
                try_or(self, (BinOp::Eq, 0), Expr::int(-1), if timed { 110 } else { 16 }, timed);
                return Ok(Some(Val { e: load(r), ty: int }));
            }
            "pthread_rwlock_unlock" => {
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(cur), Expr::Load(lv.clone())), span);
                let reader = self.branch(cmp(BinOp::Eq, load(cur), -1), span);
                self.emit(Action::Assign(lv.clone(), Expr::int(0)), span);
                let w = std::mem::take(&mut self.cur);
                self.cur = reader;
                self.emit(Action::Assign(lv, add(load(cur), -1)), span);
                self.cur.extend(w);
                self.emit(Action::AtomicEnd, span);
            }
            "pthread_once" => {
                // 0: not run, 1: running, 2: done; later callers wait until it is done.
                let Some(f) = args.get(1).and_then(|a| routine_name(&a.node)) else {
                    self.unsupported(span_l, "`pthread_once` with a routine that is not a function name");
                    return Ok(Some(Val { e: Expr::int(0), ty: int }));
                };
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(cur), Expr::Load(lv.clone())), span);
                let later = self.branch(cmp(BinOp::Eq, load(cur), 0), span);
                self.emit(Action::Assign(lv.clone(), Expr::int(1)), span);
                self.emit(Action::AtomicEnd, span);
                if self.functions.contains_key(&f) {
                    self.inline_call(&f, Vec::new(), span, Some(span_l))?;
                } else {
                    self.unsupported(span_l, format!("`pthread_once` routine `{f}` has no definition"));
                }
                self.emit(Action::Assign(lv.clone(), Expr::int(2)), span);
                let first = std::mem::take(&mut self.cur);
                self.cur = later;
                self.emit(Action::AtomicEnd, span);
                self.emit(Action::Assume(cmp(BinOp::Eq, Expr::Load(lv), 2)), span);
                self.cur.extend(first);
            }
            _ => unreachable!("counter primitive `{name}`"),
        }
        self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
        Ok(Some(Val { e: load(r), ty: int }))
    }

    /// Barriers, thread-specific keys and `realloc`, on plain IR.
    ///
    /// A barrier is a record (`count`, `arrived`, `round`): a waiter arrives in one atomic
    /// step; the last of a round resets `arrived`, advances `round` and returns
    /// `PTHREAD_BARRIER_SERIAL_THREAD`, the others block until `round` moves on and return 0.
    /// Keys are numbered by a global counter; each thread's values are a thread-local array,
    /// NULL in every new thread. `realloc` of a non-null pointer resizes in place: the object
    /// keeps its contents, and the old pointer, which the program may no longer use after a
    /// move, is the only one that could tell the difference; to size 0 it frees the object
    /// and returns NULL, as glibc does.
    pub(super) fn thread_model(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let arity = match name {
            "pthread_barrier_init" | "pthread_barrierattr_setpshared" => 3,
            "pthread_key_create" | "pthread_setspecific" | "realloc" | "pthread_mutexattr_settype" => 2,
            _ => 1,
        };
        if args.len() < arity {
            return Err(self.error(span_l, format!("`{name}` expects {arity} arguments, found {}", args.len())));
        }
        let int = CType::int();
        let uint = CType::Int(IntTy { bits: 32, signed: false }, "unsigned int".into());
        let ut = uint.scalar(self.dm());
        let r = self.temp(int.clone());
        let load = |v: VarId| Expr::Load(Lval::Var(v));
        let bin = |op: BinOp, a: Expr, b: Expr, t: Ty| Expr::Binary(op, Box::new(a), Box::new(b), t);
        let result = |r: VarId| Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() }));
        match name {
            "pthread_barrier_init" | "pthread_barrier_wait" | "pthread_barrier_destroy" => {
                self.barrier_model(name, args, span_l, r)?;
                result(r)
            }
            "pthread_barrierattr_init" | "pthread_barrierattr_destroy" | "pthread_barrierattr_setpshared" | "pthread_key_delete" => {
                for a in args {
                    self.effect(a)?;
                }
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                result(r)
            }
            "pthread_mutexattr_settype" => {
                self.effect(&args[0])?;
                let kind = self.value(&args[1])?;
                match kind.e {
                    Expr::Const(k, _) if mutex_kind_blocks(k) => {}
                    Expr::Const(MUTEX_ERRORCHECK, _) => self.errorcheck_mutex = Some(span),
                    _ => self.unsupported(args[1].span, "a recursive mutex, or one of a kind not known when lowering (`pthread_mutexattr_settype`): its owner may lock it again"),
                }
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                result(r)
            }
            "pthread_key_create" => {
                let (klv, _) = self.atomic_target(&args[0])?;
                let klv = self.stabilize(klv, span);
                let mut d = &args[1];
                while let Expression::Cast(c) = &d.node {
                    d = &c.node.expression;
                }
                if !matches!(self.value(d)?.e, Expr::Const(0, _)) {
                    self.unsupported(span_l, "`pthread_key_create` with a destructor, which runs as each thread exits");
                }
                let (next, _) = self.key_tables(span);
                let id = self.temp(uint.clone());
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(id), Expr::Load(Lval::Var(next))), span);
                let full = self.branch(bin(BinOp::Lt, load(id), Expr::Const(KEYS_MAX as i128, ut), Ty::INT), span);
                self.emit(Action::Assign(Lval::Var(next), bin(BinOp::Add, load(id), Expr::Const(1, ut), ut)), span);
                self.emit(Action::Assign(klv, load(id)), span);
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                self.emit(Action::AtomicEnd, span);
                let ok = std::mem::take(&mut self.cur);
                self.cur = full;
                self.emit(Action::Assign(Lval::Var(r), Expr::int(EAGAIN)), span);
                self.emit(Action::AtomicEnd, span);
                self.cur.extend(ok);
                result(r)
            }
            "pthread_getspecific" | "pthread_setspecific" => {
                let k = self.value(&args[0])?;
                let k = self.convert(k, &uint);
                let (_, values) = self.key_tables(span);
                let slot = Lval::Index(Box::new(Lval::Var(values)), Box::new(k));
                let ptr = CType::Pointer(Box::new(CType::Void));
                if name == "pthread_getspecific" {
                    let t = self.temp(ptr.clone());
                    self.emit(Action::Assign(Lval::Var(t), Expr::Load(slot)), span);
                    return Ok(Some(Val { e: load(t), ty: ptr }));
                }
                let v = self.value(&args[1])?;
                let v = self.convert(v, &ptr);
                self.emit(Action::Assign(slot, v), span);
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                result(r)
            }
            "realloc" => self.realloc_model(args, span),
            _ => unreachable!("thread model `{name}`"),
        }
    }

    /// A barrier operation on a `pthread_barrier_t` record of `count`, `arrived` and `round`,
    /// setting the result variable `r`; a waiter blocks until the round advances.
    fn barrier_model(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan, r: VarId) -> Result<(), Fatal> {
        let span = self.span(span_l);
        let uint = CType::Int(IntTy { bits: 32, signed: false }, "unsigned int".into());
        let ut = uint.scalar(self.dm());
        let load = |v: VarId| Expr::Load(Lval::Var(v));
        let bin = |op: BinOp, a: Expr, b: Expr, t: Ty| Expr::Binary(op, Box::new(a), Box::new(b), t);
        let (lv, ty) = self.atomic_target(&args[0])?;
        let rec = match ty {
            CType::Record(rec) if self.types.is_barrier(rec) => rec,
            _ => {
                self.unsupported(span_l, format!("`{name}` of an object that is not a `pthread_barrier_t`"));
                return Ok(());
            }
        };
        let lv = self.stabilize(lv, span);
        let field = |i: u32| Lval::Field(Box::new(lv.clone()), rec, i);
        match name {
            "pthread_barrier_init" => {
                self.effect(&args[1])?;
                let n = self.value(&args[2])?;
                let n = self.convert(n, &uint);
                let c = self.temp(uint.clone());
                self.emit(Action::Assign(Lval::Var(c), n), span);
                let zero = self.branch(bin(BinOp::Ne, load(c), Expr::Const(0, ut), Ty::INT), span);
                self.emit(Action::Assign(field(0), load(c)), span);
                self.emit(Action::Assign(field(1), Expr::Const(0, ut)), span);
                self.emit(Action::Assign(field(2), Expr::Const(0, ut)), span);
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                let ok = std::mem::take(&mut self.cur);
                self.cur = zero;
                self.emit(Action::Assign(Lval::Var(r), Expr::int(EINVAL)), span);
                self.cur.extend(ok);
            }
            "pthread_barrier_wait" => {
                let (a, n, g) = (self.temp(uint.clone()), self.temp(uint.clone()), self.temp(uint.clone()));
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(n), Expr::Load(field(0))), span);
                self.emit(Action::Assign(Lval::Var(a), Expr::Load(field(1))), span);
                self.emit(Action::Assign(Lval::Var(a), bin(BinOp::Add, load(a), Expr::Const(1, ut), ut)), span);
                self.emit(Action::Assign(Lval::Var(g), Expr::Load(field(2))), span);
                let waits = self.branch(bin(BinOp::Eq, load(a), load(n), Ty::INT), span);
                self.emit(Action::Assign(field(1), Expr::Const(0, ut)), span);
                self.emit(Action::Assign(field(2), bin(BinOp::Add, load(g), Expr::Const(1, ut), ut)), span);
                self.emit(Action::Assign(Lval::Var(r), Expr::int(BARRIER_SERIAL_THREAD)), span);
                self.emit(Action::AtomicEnd, span);
                let last = std::mem::take(&mut self.cur);
                self.cur = waits;
                self.emit(Action::Assign(field(1), load(a)), span);
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
                self.emit(Action::AtomicEnd, span);
                // Blocks until the last thread of the round has arrived.
                self.emit(Action::Assume(bin(BinOp::Ne, Expr::Load(field(2)), load(g), Ty::INT)), span);
                self.cur.extend(last);
            }
            _ => {
                self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
            }
        }
        Ok(())
    }

    /// `realloc(p, n)`: a new object for a null `p`, else the same object resized in place, or
    /// freed with NULL returned for size 0.
    fn realloc_model(&mut self, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        let load = |v: VarId| Expr::Load(Lval::Var(v));
        let bin = |op: BinOp, a: Expr, b: Expr, t: Ty| Expr::Binary(op, Box::new(a), Box::new(b), t);
        let p = self.value(&args[0])?;
        let n = self.value(&args[1])?;
        if self.opts.for_races {
            self.release_write(p.clone(), "realloc", span);
        }
        let size_t = self.size_t();
        let n = self.convert(n, &size_t);
        let ptr = CType::Pointer(Box::new(CType::Void));
        let p = self.convert(p, &ptr);
        let t = self.temp(ptr.clone());
        let site = AllocId(self.alloc_sites);
        self.alloc_sites += 1;
        if matches!(p, Expr::Const(0, _)) {
            self.emit(Action::Alloc(Lval::Var(t), site, CType::Void), span);
        } else {
            let size = self.temp(size_t.clone());
            let st = size_t.scalar(self.dm());
            self.emit(Action::Assign(Lval::Var(size), n), span);
            self.emit(Action::Assign(Lval::Var(t), p), span);
            let kept = self.branch(bin(BinOp::Eq, load(t), Expr::Const(0, Ty::Ptr), Ty::INT), span);
            self.emit(Action::Alloc(Lval::Var(t), site, CType::Void), span);
            let allocated = std::mem::take(&mut self.cur);
            self.cur = kept;
            // Of a live object and size 0, glibc frees it and returns NULL.
            let resized = self.branch(bin(BinOp::Eq, load(size), Expr::Const(0, st), Ty::INT), span);
            self.emit(Action::Assign(Lval::Var(t), Expr::Const(0, Ty::Ptr)), span);
            self.cur.extend(resized);
            self.cur.extend(allocated);
        }
        Ok(Some(Val { e: load(t), ty: ptr }))
    }

    /// The global counter of created keys and the thread-local table of each thread's values,
    /// made on first use.
    fn key_tables(&mut self, span: Span) -> (VarId, VarId) {
        const NEXT: &str = "$keys_created";
        const VALUES: &str = "$key_values";
        if let (Some(n), Some(v)) = (self.globals.get(NEXT), self.globals.get(VALUES)) {
            return (*n, *v);
        }
        let uint = CType::Int(IntTy { bits: 32, signed: false }, "unsigned int".into());
        let n = self.new_var(NEXT, uint, VarKind::Global, Some(span));
        let table = CType::Array(Box::new(CType::Pointer(Box::new(CType::Void))), Some(KEYS_MAX));
        let v = self.new_var(VALUES, table, VarKind::ThreadLocal, Some(span));
        self.globals.insert(NEXT.into(), n);
        self.globals.insert(VALUES.into(), v);
        (n, v)
    }

    /// The global holding the result of the current thread template's start routine.
    pub(super) fn thread_result(&mut self, ty: CType) -> VarId {
        if let Some(v) = self.thread_results.get(&self.tpl) {
            return *v;
        }
        let name = format!("$result@{}", self.templates[self.tpl.index()].name);
        let v = self.new_var(&name, ty, VarKind::Global, None);
        self.thread_results.insert(self.tpl, v);
        v
    }

    /// Makes `pthread_join`'s result exact where the handle names one thread for certain: a
    /// handle variable of the root thread, whose address is not taken, written by exactly one
    /// `pthread_create` (and otherwise only by its uninitialised declaration), creating a
    /// template with one instance ever. The joined thread's result global is then read.
    pub(super) fn resolve_join_results(&mut self, mode: Mode) {
        for (at, h) in std::mem::take(&mut self.join_results) {
            let var = &self.vars[h.index()];
            let root_local = matches!(var.kind, VarKind::Local(TemplateId(0)) | VarKind::Temp(TemplateId(0)));
            if var.addr_taken || !root_local || mode.parameterized || self.locs[at.index()].template != TemplateId(0) {
                continue;
            }
            let mut forks = Vec::new();
            let mut other_writes = false;
            for (i, l) in self.locs.iter().enumerate() {
                match &l.action {
                    Action::Fork { template, handle: Some(Lval::Var(v)), .. } if *v == h => forks.push((LocId(i as u32), *template)),
                    Action::Assign(Lval::Var(v), e) if *v == h && !matches!(e, Expr::Nondet(_)) => other_writes = true,
                    _ => {}
                }
            }
            let [(fork, t)] = forks[..] else { continue };
            let tpl = &self.templates[t.index()];
            if other_writes || tpl.multiplicity != Multiplicity::One || tpl.spawned_at.len() != 1 || self.locs[fork.index()].template != TemplateId(0) || self.on_cycle(fork) {
                continue;
            }
            let Some(r) = self.thread_results.get(&t).copied() else { continue };
            if let Action::Assign(lv, _) = &self.locs[at.index()].action {
                let lv = lv.clone();
                self.locs[at.index()].action = Action::Assign(lv, Expr::Load(Lval::Var(r)));
            }
        }
    }

    /// A lock declared in a block that a loop enters again is a new object on every pass, which
    /// `pthread_mutex_init` (or the initializer) leaves unlocked; the IR keeps one object per
    /// variable, whose lock a previous pass may have left held, so the relock would block
    /// where the program goes on (a wrong `safe`). Such programs are not analysed.
    pub(super) fn lock_decls_in_loops(&mut self) {
        for (at, span) in std::mem::take(&mut self.lock_decls) {
            if self.on_cycle(at) {
                let construct = "a lock declared inside a loop: each pass declares a new, unlocked object, but the IR keeps one per variable".to_string();
                if !self.unsupported.iter().any(|u| u.span == span && u.construct == construct) {
                    self.unsupported.push(Unsupported { span, construct });
                }
            }
        }
    }

    /// Whether a location lies on a cycle of its control-flow graph (a loop may run it twice).
    fn on_cycle(&self, at: LocId) -> bool {
        let mut seen = hashbrown::HashSet::new();
        let mut stack: Vec<LocId> = self.locs[at.index()].succs.clone();
        while let Some(l) = stack.pop() {
            if l == at {
                return true;
            }
            if seen.insert(l) {
                stack.extend(self.locs[l.index()].succs.iter().copied());
            }
        }
        false
    }

    /// `calloc(count, sizeof(T))`: a fresh object of `count` elements of `T`, all zero. A
    /// constant count zeroes each scalar in turn; any other count runs a loop over the elements
    /// (`k < count`, one element's scalars per iteration), exact in every engine: the bounded
    /// search counts it when `count` holds a constant there, and cuts it like any loop otherwise.
    /// Without a `sizeof` (`calloc(n, size)`) see [`Lowerer::zeroed_unnamed`].
    pub(super) fn calloc(&mut self, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Val>, Fatal> {
        if args.len() != 2 {
            return Err(self.error(span_l, format!("`calloc` expects 2 arguments, found {}", args.len())));
        }
        let size = self.sized(args, &[(0, Some(1)), (1, Some(0))]);
        self.allocate("`calloc`", args, size, true, false, span_l)
    }

    /// A Linux allocator the program does not define (`kmalloc(size, flags)`, `kzalloc`,
    /// `kcalloc(n, size, flags)`, `kmalloc_array`, `vmalloc`, `vzalloc`): a fresh object, zeroed
    /// for the `z` and `calloc` forms, or NULL, since a kernel allocation may fail (which of the
    /// two is an input: the memory the kernel has left). The size need not be a `sizeof`.
    pub(super) fn kernel_alloc(&mut self, name: &str, args: &'a [Node<Expression>], span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let (arity, size, zeroed) = match name {
            "kcalloc" => (3, self.sized(args, &[(1, Some(0))]), true),
            "kmalloc_array" => (3, self.sized(args, &[(1, Some(0))]), false),
            "kzalloc" => (2, self.sized(args, &[(0, None)]), true),
            "vzalloc" => (1, self.sized(args, &[(0, None)]), true),
            "vmalloc" => (1, self.sized(args, &[(0, None)]), false),
            _ => (2, self.sized(args, &[(0, None)]), false),
        };
        if args.len() != arity {
            return Err(self.error(span_l, format!("`{name}` expects {arity} argument(s), found {}", args.len())));
        }
        self.allocate(&format!("`{name}`"), args, size, zeroed, true, span_l)
    }

    /// The element type, the constant count and the count's argument of an allocation whose
    /// size is `count` times a `sizeof`: the first of `forms` (the size's argument, the count's,
    /// none for one element) whose size argument is a `sizeof`.
    fn sized(&mut self, args: &[Node<Expression>], forms: &[(usize, Option<usize>)]) -> Sized {
        for &(size, count) in forms {
            let Some(a) = args.get(size) else { continue };
            let t = match &a.node {
                Expression::SizeOfTy(t) => self.types.type_name(&t.node.0.node).ok(),
                Expression::SizeOfVal(e) => Some(self.static_type(&e.node.0.node)),
                _ => None,
            };
            if let Some(t) = t {
                let n = match count {
                    Some(i) => args.get(i).and_then(|c| self.types.const_eval(&c.node)),
                    None => Some(1),
                };
                return Sized { elem: Some(t), count: n, count_arg: count };
            }
        }
        Sized { elem: None, count: None, count_arg: None }
    }

    /// A fresh object of `size`, zeroed when asked (scalar by scalar where its type is known,
    /// else see [`Lowerer::zeroed_unnamed`]), or NULL too when the allocation `may_fail`.
    fn allocate(&mut self, what: &str, args: &'a [Node<Expression>], size: Sized, zeroed: bool, may_fail: bool, span_l: LSpan) -> Result<Option<Val>, Fatal> {
        let span = self.span(span_l);
        let Sized { elem, count, count_arg } = size;
        // The count's value is needed only when it is not a constant.
        let mut n = None;
        for (i, a) in args.iter().enumerate() {
            if zeroed && count.is_none() && count_arg == Some(i) {
                let v = self.value(a)?;
                let size_t = self.size_t();
                n = Some(self.convert(v, &size_t));
            } else {
                self.effect(a)?;
            }
        }
        let elem_ty = elem.clone().unwrap_or(CType::Void);
        let ty = CType::Pointer(Box::new(elem_ty.clone()));
        let t = self.temp(ty.clone());
        let site = AllocId(self.alloc_sites);
        self.alloc_sites += 1;
        let counted = match n {
            Some(n) => {
                let size_t = self.size_t();
                let nt = self.temp(size_t.clone());
                self.emit(Action::Assign(Lval::Var(nt), n), span);
                Some(nt)
            }
            None => None,
        };
        let failed = if may_fail {
            let c = self.temp(CType::int());
            self.emit(Action::Assign(Lval::Var(c), Expr::Nondet(Ty::INT)), span);
            Some(self.branch(Expr::Binary(BinOp::Ne, Box::new(Expr::Load(Lval::Var(c))), Box::new(Expr::int(0)), Ty::INT), span))
        } else {
            None
        };
        self.emit(Action::Alloc(Lval::Var(t), site, CType::Void), span);
        if zeroed {
            let o = Obj { base: Base::Ptr(Expr::Load(Lval::Var(t))), elem: elem_ty.clone(), len: count.map(|c| c.max(0) as u64) };
            if let Some(nt) = counted {
                if !self.zero_elements(&o, nt, span) {
                    self.zeroed_unnamed(what, span);
                }
            } else {
                let leaves = match (&elem, count) {
                    (Some(_), Some(c)) => self.leaves_upto(&o, (c.max(0) as u64).saturating_mul(self.types.size_of(&elem_ty))),
                    _ => None,
                };
                match leaves {
                    Some((whole, _)) => {
                        for l in whole {
                            let z = self.zero_of(&l, span);
                            self.emit(Action::Assign(l.lv, z), span);
                        }
                    }
                    None => self.zeroed_unnamed(what, span),
                }
            }
        }
        if let Some(failed) = failed {
            let ok = std::mem::take(&mut self.cur);
            self.cur = failed;
            self.emit(Action::Assign(Lval::Var(t), Expr::Const(0, Ty::Ptr)), span);
            self.cur.extend(ok);
        }
        Ok(Some(Val { e: Expr::Load(Lval::Var(t)), ty }))
    }

    /// Zeroed memory the IR cannot name scalar by scalar (its size is no `sizeof`, or its type's
    /// layout is not known): the fresh object's contents stay arbitrary, as every engine reads
    /// an object no store has written, which covers zero. The replay would take them as inputs
    /// instead of zero, so a step here taints everything after it.
    pub(super) fn zeroed_unnamed(&mut self, what: &str, span: Span) {
        let ap = self.approximation(format!("the zeroed contents of an object from {what} whose size is no `sizeof` of a type with a known layout"), span, true, true);
        let t = self.temp(CType::int());
        self.emit(Action::Assign(Lval::Var(t), Expr::Havoc(Ty::INT, ap)), span);
    }

    /// The zero of a scalar (all bits clear): a havoc for floating point, which the IR does
    /// not interpret.
    fn zero_of(&self, l: &Leaf, span: Span) -> Expr {
        let st = l.ty.scalar(self.dm());
        if st == Ty::Float {
            self.havoc(st, "a zero floating-point value", span)
        } else {
            Expr::Const(0, st)
        }
    }

    /// Zeroes elements `0 .. n` of `o` (`n` a `size_t` temporary) by a loop whose counter
    /// steps by one towards `n`; false, with nothing emitted, when an element's scalars are not
    /// known.
    fn zero_elements(&mut self, o: &Obj, n: VarId, span: Span) -> bool {
        let size_t = self.size_t();
        let st = size_t.scalar(self.dm());
        let k = self.temp(size_t);
        let mut leaves = Vec::new();
        if self.types.size_of(&o.elem) == 0 || matches!(o.elem, CType::Void | CType::Function) || !self.leaves(o.at(Expr::Load(Lval::Var(k))), &o.elem, 0, &mut leaves) {
            return false;
        }
        self.emit(Action::Assign(Lval::Var(k), Expr::Const(0, st)), span);
        let head = self.new_loc(Action::Skip, span);
        self.place(head);
        let done = self.branch(Expr::Binary(BinOp::Lt, Box::new(Expr::Load(Lval::Var(k))), Box::new(Expr::Load(Lval::Var(n))), Ty::INT), span);
        for l in leaves {
            let z = self.zero_of(&l, span);
            self.emit(Action::Assign(l.lv, z), span);
        }
        self.emit(Action::Assign(Lval::Var(k), Expr::Binary(BinOp::Add, Box::new(Expr::Load(Lval::Var(k))), Box::new(Expr::Const(1, st)), st)), span);
        self.jump(head);
        self.cur = done;
        true
    }

    fn memset(&mut self, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        let dst = self.object(&args[0])?;
        let c = self.value(&args[1])?;
        let c = self.convert(c, &CType::int());
        let n = self.value(&args[2])?;
        let ret = Some(Val { e: dst.addr(idx(0)), ty: CType::Pointer(Box::new(CType::Void)) });
        let Some(n) = n.e.as_const() else {
            match self.all_leaves(&dst) {
                Some(ls) => self.havoc_leaves(ls, "`memset` of a size that is not a constant", span),
                None => self.incomplete("`memset` of a size that is not a constant, into memory of unknown extent".into(), span),
            }
            return Ok(ret);
        };
        let Some((whole, part)) = self.leaves_upto(&dst, n.max(0) as u64) else {
            self.incomplete("`memset` into memory whose layout is not known".into(), span);
            return Ok(ret);
        };
        let u64t = Ty::Int(IntTy { bits: 64, signed: false });
        let byte = match c.as_const() {
            Some(k) => Expr::Const(k & 0xff, u64t),
            None => Expr::Binary(BinOp::BitAnd, Box::new(Expr::Cast(u64t, Box::new(c))), Box::new(Expr::Const(0xff, u64t)), u64t),
        };
        for l in whole {
            let t = l.ty.scalar(self.dm());
            let v = match (&l.ty, byte.as_const()) {
                (_, Some(b)) if l.bit_field && b != 0 && b != 0xff => self.havoc(t, "a `memset` of a bit-field with a byte other than 0 or 0xff", span),
                (_, None) if l.bit_field => self.havoc(t, "a `memset` of a bit-field with a byte that is not a constant", span),
                (CType::Int(it, _), Some(b)) => {
                    let rep = (0..l.size).fold(0i128, |acc, _| (acc << 8) | b);
                    Expr::Const(Ty::Int(*it).convert(rep, self.dm()), t)
                }
                (CType::Int(_, _), None) => {
                    let rep = (0..l.size).fold(0i128, |acc, _| (acc << 8) | 1);
                    Expr::Cast(t, Box::new(Expr::Binary(BinOp::Mul, Box::new(byte.clone()), Box::new(Expr::Const(rep, u64t)), u64t)))
                }
                (CType::Bool, _) => Expr::Cast(Ty::Bool, Box::new(byte.clone())),
                (CType::Pointer(_), Some(0)) => Expr::Const(0, Ty::Ptr),
                _ => self.havoc(t, "a `memset` of a pointer or floating-point object", span),
            };
            self.emit(Action::Assign(l.lv, v), span);
        }
        self.havoc_leaves(part, "`memset` of part of a scalar", span);
        Ok(ret)
    }

    fn memcpy(&mut self, args: &'a [Node<Expression>], span: Span, overlap: bool) -> Result<Option<Val>, Fatal> {
        let dst = self.object(&args[0])?;
        let src = self.object(&args[1])?;
        let n = self.value(&args[2])?;
        let ret = Some(Val { e: dst.addr(idx(0)), ty: CType::Pointer(Box::new(CType::Void)) });
        let Some(n) = n.e.as_const() else {
            match self.all_leaves(&dst) {
                Some(ls) => self.havoc_leaves(ls, "a memory copy of a size that is not a constant", span),
                None => self.incomplete("a memory copy of a size that is not a constant, into memory of unknown extent".into(), span),
            }
            return Ok(ret);
        };
        let n = n.max(0) as u64;
        let (d, s) = (self.leaves_upto(&dst, n), self.leaves_upto(&src, n));
        let Some((dw, dp)) = d else {
            self.incomplete("a memory copy into memory whose layout is not known".into(), span);
            return Ok(ret);
        };
        let same = match &s {
            Some((sw, sp)) => {
                sp.is_empty() && dp.is_empty() && sw.len() == dw.len() && sw.iter().zip(&dw).all(|(a, b)| a.off == b.off && a.size == b.size && a.ty.scalar(self.dm()) == b.ty.scalar(self.dm()))
            }
            None => false,
        };
        if !same {
            // A pointer among the bytes copied may land in an integer or a pointer that the
            // havoc makes arbitrary, and so unknown to the alias model, while it still points
            // to the source's target.
            if s.as_ref().is_some_and(|(sw, sp)| sw.iter().chain(sp).any(|l| matches!(l.ty, CType::Pointer(_)))) {
                self.incomplete("a memory copy of pointers into an object of another layout (what they point to is lost)".into(), span);
            }
            let mut all = dw;
            all.extend(dp);
            self.havoc_leaves(all, "a memory copy between objects of different layouts", span);
            return Ok(ret);
        }
        let (sw, _) = s.expect("checked");
        if overlap {
            // The source is read whole before anything is written, as if through a buffer.
            let mut temps = Vec::new();
            for l in &sw {
                let t = self.temp(l.ty.clone());
                self.emit(Action::Assign(Lval::Var(t), Expr::Load(l.lv.clone())), span);
                temps.push(t);
            }
            for (l, t) in dw.into_iter().zip(temps) {
                self.emit(Action::Assign(l.lv, Expr::Load(Lval::Var(t))), span);
            }
        } else {
            for (d, s) in dw.into_iter().zip(sw) {
                self.emit(Action::Assign(d.lv, Expr::Load(s.lv)), span);
            }
        }
        Ok(ret)
    }

    /// Branches on `c`: the frontier continues where it holds; returns where it does not.
    fn branch(&mut self, c: Expr, span: Span) -> Vec<LocId> {
        let (yes, no) = branch_conditions(c, Ty::INT);
        let here = std::mem::take(&mut self.cur);
        let t = self.new_loc(Action::Assume(yes), span);
        let f = self.new_loc(Action::Assume(no), span);
        self.connect(&here, t);
        self.connect(&here, f);
        self.cur = vec![t];
        vec![f]
    }

    /// Reads element `i` of a string into a fresh temporary of type `char`.
    fn read_char(&mut self, o: &Obj, i: Expr, span: Span) -> VarId {
        let t = self.temp(o.elem.clone());
        self.emit(Action::Assign(Lval::Var(t), Expr::Load(o.at(i))), span);
        t
    }

    /// How many characters the string functions follow in this object.
    fn string_limit(&self, o: &Obj) -> u64 {
        o.len.unwrap_or(STRING_LIMIT).min(LEAF_LIMIT as u64)
    }

    fn eq(a: Expr, b: Expr) -> Expr {
        Expr::Binary(BinOp::Eq, Box::new(a), Box::new(b), Ty::INT)
    }

    /// `strlen`, character by character up to the object's end (or [`STRING_LIMIT`]); the
    /// result is a temporary of type `size_t`.
    fn strlen_of(&mut self, s: &Obj, span: Span) -> VarId {
        let r = self.temp(self.size_t());
        let st = self.size_t().scalar(self.dm());
        if !s.is_chars() {
            let h = self.havoc(st, "`strlen` of memory that is not a character array", span);
            self.emit(Action::Assign(Lval::Var(r), h), span);
            return r;
        }
        let mut done = Vec::new();
        for i in 0..self.string_limit(s) {
            let ch = self.read_char(s, idx(i as i128), span);
            let more = self.branch(Self::eq(Expr::Load(Lval::Var(ch)), Expr::int(0)), span);
            self.emit(Action::Assign(Lval::Var(r), Expr::Const(i as i128, st)), span);
            done.extend(std::mem::take(&mut self.cur));
            self.cur = more;
        }
        let h = self.havoc(st, "`strlen` of a string longer than the characters followed", span);
        self.emit(Action::Assign(Lval::Var(r), h), span);
        self.cur.extend(done);
        r
    }

    fn strcmp(&mut self, args: &'a [Node<Expression>], span: Span, bounded: bool) -> Result<Option<Val>, Fatal> {
        let a = self.object(&args[0])?;
        let b = self.object(&args[1])?;
        let n = if bounded { Some(self.value(&args[2])?.e.as_const()) } else { None };
        let r = self.temp(CType::int());
        let mut limit = self.string_limit(&a).min(self.string_limit(&b));
        let mut exact_end = false;
        match n {
            Some(Some(k)) if (k.max(0) as u64) <= limit => {
                limit = k.max(0) as u64;
                exact_end = true;
            }
            Some(None) => limit = 0,
            _ => {}
        }
        if !a.is_chars() || !b.is_chars() {
            limit = 0;
            exact_end = false;
        }
        let uchar = Ty::Int(IntTy { bits: 8, signed: false });
        let mut done = Vec::new();
        for i in 0..limit {
            let x = self.read_char(&a, idx(i as i128), span);
            let y = self.read_char(&b, idx(i as i128), span);
            let (xe, ye) = (Expr::Load(Lval::Var(x)), Expr::Load(Lval::Var(y)));
            let same = self.branch(Self::eq(xe.clone(), ye.clone()), span);
            // Equal so far: the end of both strings, or on to the next character.
            let go_on = self.branch(Self::eq(xe.clone(), Expr::int(0)), span);
            self.emit(Action::Assign(Lval::Var(r), Expr::int(0)), span);
            done.extend(std::mem::take(&mut self.cur));
            // Different: the sign of the characters' difference as unsigned char.
            self.cur = same;
            let ux = Expr::Cast(Ty::INT, Box::new(Expr::Cast(uchar, Box::new(xe))));
            let uy = Expr::Cast(Ty::INT, Box::new(Expr::Cast(uchar, Box::new(ye))));
            let v = self.signed_like(ux, uy, "the magnitude of `strcmp`'s result", span);
            self.emit(Action::Assign(Lval::Var(r), v), span);
            done.extend(std::mem::take(&mut self.cur));
            self.cur = go_on;
        }
        let last = if exact_end { Expr::int(0) } else { self.havoc(Ty::INT, "a string comparison beyond the characters followed", span) };
        self.emit(Action::Assign(Lval::Var(r), last), span);
        self.cur.extend(done);
        Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() }))
    }

    fn strcpy(&mut self, args: &'a [Node<Expression>], span: Span, name: &str) -> Result<Option<Val>, Fatal> {
        let d = self.object(&args[0])?;
        let s = self.object(&args[1])?;
        let n = if name == "strncpy" { Some(self.value(&args[2])?.e.as_const()) } else { None };
        let ret = Some(Val { e: d.addr(idx(0)), ty: CType::Pointer(Box::new(d.elem.clone())) });
        if !d.is_chars() || !s.is_chars() || matches!(n, Some(None)) {
            match self.all_leaves(&d) {
                Some(ls) => self.havoc_leaves(ls, &format!("`{name}` that the front-end cannot follow"), span),
                None => self.incomplete(format!("`{name}` into memory of unknown extent"), span),
            }
            return Ok(ret);
        }
        // `strcat` starts writing at the end of the destination's string.
        let start = if name == "strcat" {
            let k = self.strlen_of(&d, span);
            Some(Expr::Cast(Ty::Int(IntTy { bits: 64, signed: true }), Box::new(Expr::Load(Lval::Var(k)))))
        } else {
            None
        };
        let at = |i: u64| match &start {
            Some(k) => Expr::Binary(BinOp::Add, Box::new(k.clone()), Box::new(idx(i as i128)), Ty::Int(IntTy { bits: 64, signed: true })),
            None => idx(i as i128),
        };
        // Characters copied, the NUL included: at most the source's extent, and (from the
        // start) the destination's.
        let room = if start.is_none() { d.len } else { None };
        let limit = match n {
            Some(Some(k)) => k.max(0) as u64,
            _ => s.len.unwrap_or(STRING_LIMIT).min(room.unwrap_or(STRING_LIMIT + 1)),
        };
        // Running out of either object without a NUL is undefined behaviour, which verdicts
        // exclude (as signed overflow); only a limit of ours leaves copies unmodelled.
        let overrun_is_ub = s.len.is_some_and(|l| limit >= l) || room.is_some_and(|l| limit >= l);
        if limit > LEAF_LIMIT as u64 {
            self.incomplete(format!("`{name}` of more than {LEAF_LIMIT} characters"), span);
            return Ok(ret);
        }
        let mut padding: Vec<LocId> = Vec::new();
        let mut done = Vec::new();
        for i in 0..limit {
            // Copying: the next character, then on (or, at the terminator, to the padding).
            let ch = self.read_char(&s, idx(i as i128), span);
            self.emit(Action::Assign(d.at(at(i)), Expr::Load(Lval::Var(ch))), span);
            let more = self.branch(Self::eq(Expr::Load(Lval::Var(ch)), Expr::int(0)), span);
            let ended = std::mem::take(&mut self.cur);
            if n.is_some() {
                // `strncpy` pads with NULs up to `n`.
                if i + 1 < limit {
                    let before = std::mem::take(&mut padding);
                    self.cur = before;
                    self.cur.extend(ended);
                    self.emit(Action::Assign(d.at(at(i + 1)), Expr::int(0)), span);
                    padding = std::mem::take(&mut self.cur);
                } else {
                    done.extend(ended);
                    done.extend(std::mem::take(&mut padding));
                }
            } else {
                done.extend(ended);
            }
            self.cur = more;
        }
        if n.is_none() {
            if !overrun_is_ub {
                // A source longer than followed: the rest of the copy is not modelled.
                self.incomplete(format!("`{name}` of a string longer than {limit} characters"), span);
            }
            self.cur.clear();
        }
        self.cur.extend(done);
        self.cur.extend(padding);
        Ok(ret)
    }

    fn strchr(&mut self, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        let s = self.object(&args[0])?;
        let c = self.value(&args[1])?;
        let cty = CType::Int(IntTy { bits: 8, signed: true }, "char".into());
        let c = self.convert(c, &cty);
        let pty = CType::Pointer(Box::new(s.elem.clone()));
        let r = self.temp(pty.clone());
        let limit = if s.is_chars() { self.string_limit(&s) } else { 0 };
        let mut done = Vec::new();
        for i in 0..limit {
            let ch = self.read_char(&s, idx(i as i128), span);
            let x = Expr::Cast(Ty::Int(IntTy { bits: 8, signed: true }), Box::new(Expr::Load(Lval::Var(ch))));
            let other = self.branch(Self::eq(x.clone(), c.clone()), span);
            self.emit(Action::Assign(Lval::Var(r), s.addr(idx(i as i128))), span);
            done.extend(std::mem::take(&mut self.cur));
            self.cur = other;
            let more = self.branch(Self::eq(x, Expr::int(0)), span);
            self.emit(Action::Assign(Lval::Var(r), Expr::Const(0, Ty::Ptr)), span);
            done.extend(std::mem::take(&mut self.cur));
            self.cur = more;
        }
        let h = self.havoc(Ty::Ptr, "`strchr` beyond the characters followed", span);
        self.emit(Action::Assign(Lval::Var(r), h), span);
        self.cur.extend(done);
        Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: pty }))
    }

    fn memcmp(&mut self, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        let a = self.object(&args[0])?;
        let b = self.object(&args[1])?;
        let n = self.value(&args[2])?.e.as_const();
        let r = self.temp(CType::int());
        let la = n.and_then(|n| self.leaves_upto(&a, n.max(0) as u64));
        let lb = n.and_then(|n| self.leaves_upto(&b, n.max(0) as u64));
        let dm = self.dm();
        let pairs = match (la, lb) {
            (Some((aw, ap)), Some((bw, bp)))
                if ap.is_empty() && bp.is_empty() && aw.len() == bw.len() && aw.iter().zip(&bw).all(|(x, y)| x.off == y.off && x.size == y.size && x.ty.scalar(dm) == y.ty.scalar(dm)) =>
            {
                Some(aw.into_iter().zip(bw).collect::<Vec<_>>())
            }
            _ => None,
        };
        // Floating-point values equal as numbers may differ as bytes (0.0 and -0.0) and the
        // other way round (a NaN).
        let pairs = pairs.filter(|ps| ps.iter().all(|(x, _)| !matches!(x.ty, CType::Float(_))));
        let Some(pairs) = pairs else {
            let h = self.havoc(Ty::INT, "`memcmp` the front-end cannot follow", span);
            self.emit(Action::Assign(Lval::Var(r), h), span);
            return Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() }));
        };
        let uchar = Ty::Int(IntTy { bits: 8, signed: false });
        let mut done = Vec::new();
        // Bytes no scalar covers (padding, the unused bits of a bit-field's unit) hold
        // whatever was stored there last, which the leaves do not track: once one lies before
        // a scalar, that scalar no longer decides the result's sign, and the result of equal
        // scalars may be anything.
        let mut covered = 0u64;
        let mut clean = true;
        for (x, y) in pairs {
            if x.off > covered || x.bit_field {
                clean = false;
            }
            let bytes = clean && x.size == 1 && x.ty.is_integral();
            covered = covered.max(x.off + x.size);
            let tx = self.temp(x.ty.clone());
            self.emit(Action::Assign(Lval::Var(tx), Expr::Load(x.lv)), span);
            let ty_ = self.temp(y.ty.clone());
            self.emit(Action::Assign(Lval::Var(ty_), Expr::Load(y.lv)), span);
            let (xe, ye) = (Expr::Load(Lval::Var(tx)), Expr::Load(Lval::Var(ty_)));
            let differ = self.branch(Self::eq(xe.clone(), ye.clone()), span);
            let keep = std::mem::take(&mut self.cur);
            self.cur = differ;
            let v = if bytes {
                let ux = Expr::Cast(Ty::INT, Box::new(Expr::Cast(uchar, Box::new(xe))));
                let uy = Expr::Cast(Ty::INT, Box::new(Expr::Cast(uchar, Box::new(ye))));
                self.signed_like(ux, uy, "the magnitude of `memcmp`'s result", span)
            } else {
                // Which way wider objects (or bytes after uncompared ones) differ depends on bytes
                // the leaves do not show: some non-zero value.
                let h = self.havoc(Ty::INT, "the sign of `memcmp` over objects wider than a byte, bit-fields or bytes after padding", span);
                let t = self.temp(CType::int());
                self.emit(Action::Assign(Lval::Var(t), h), span);
                self.emit(Action::Assume(Expr::Binary(BinOp::Ne, Box::new(Expr::Load(Lval::Var(t))), Box::new(Expr::int(0)), Ty::INT)), span);
                Expr::Load(Lval::Var(t))
            };
            self.emit(Action::Assign(Lval::Var(r), v), span);
            done.extend(std::mem::take(&mut self.cur));
            self.cur = keep;
        }
        let n = n.expect("pairs need a constant size").max(0) as u64;
        let equal = if clean && covered >= n { Expr::int(0) } else { self.havoc(Ty::INT, "`memcmp` over padding bytes or a bit-field's unused bits", span) };
        self.emit(Action::Assign(Lval::Var(r), equal), span);
        self.cur.extend(done);
        Ok(Some(Val { e: Expr::Load(Lval::Var(r)), ty: CType::int() }))
    }

    /// Some `int` with the sign of `a - b` (which differ): C fixes only the sign of a
    /// comparison function's result, and GCC folds calls on constants to -1 or 1 where the
    /// C library returns the difference.
    fn signed_like(&mut self, a: Expr, b: Expr, what: &str, span: Span) -> Expr {
        let t = self.temp(CType::int());
        let h = self.havoc(Ty::INT, what, span);
        self.emit(Action::Assign(Lval::Var(t), h), span);
        let above = self.branch(Expr::Binary(BinOp::Lt, Box::new(a), Box::new(b), Ty::INT), span);
        self.emit(Action::Assume(Expr::Binary(BinOp::Lt, Box::new(Expr::Load(Lval::Var(t))), Box::new(Expr::int(0)), Ty::INT)), span);
        let below = std::mem::take(&mut self.cur);
        self.cur = above;
        self.emit(Action::Assume(Expr::Binary(BinOp::Gt, Box::new(Expr::Load(Lval::Var(t))), Box::new(Expr::int(0)), Ty::INT)), span);
        self.cur.extend(below);
        Expr::Load(Lval::Var(t))
    }

    /// The object a pointer argument of an atomic built-in designates, with its type.
    fn atomic_target(&mut self, a: &'a Node<Expression>) -> Result<(Lval, CType), Fatal> {
        let v = self.value(a)?;
        let ty = match &v.ty {
            CType::Pointer(t) | CType::Array(t, _) => (**t).clone(),
            _ => CType::int(),
        };
        let lv = match v.e {
            Expr::AddrOf(lv) => lv,
            e => Lval::Deref(Box::new(e), ty.clone()),
        };
        Ok((lv, ty))
    }

    /// The `__sync_*` and `__atomic_*` built-ins: a read-modify-write is one atomic section
    /// over the object, whose address is evaluated once before it.
    fn atomic_builtin(&mut self, name: &str, args: &'a [Node<Expression>], span: Span) -> Result<Option<Val>, Fatal> {
        let (lv, ty) = self.atomic_target(&args[0])?;
        if matches!(name, "__atomic_test_and_set" | "__atomic_clear") && !matches!(&ty, CType::Bool | CType::Int(IntTy { bits: 8, .. }, _)) {
            // GCC sets or clears only the byte at the address, which in a wider object is
            // part of its value.
            let construct = format!("`{name}` on an object wider than a byte (it sets or clears only the byte at the address)");
            self.unsupported.push(Unsupported { span, construct });
        }
        let lv = self.stabilize(lv, span);
        let old = self.temp(ty.clone());
        let oldv = || Val { e: Expr::Load(Lval::Var(old)), ty: ty.clone() };
        if let Some((op, new, nand)) = rmw_op(name) {
            let v = self.value(&args[1])?;
            // GCC adds the operand to a pointer in bytes, unscaled; the IR moves pointers by
            // elements, so a constant that is a whole number of elements is divided, and
            // anything else is not analysed. Bitwise operations on a pointer's bits have no
            // meaning in the IR's (object, offset) pointers.
            let v = match &ty {
                CType::Pointer(_) if !matches!(op, BinOp::Add | BinOp::Sub) => {
                    self.unsupported.push(Unsupported { span, construct: format!("`{name}` on a pointer (bitwise operations on an address)") });
                    v
                }
                CType::Pointer(t) if self.types.size_of(t) > 1 => {
                    let size = self.types.size_of(t) as i128;
                    match v.e.as_const() {
                        Some(k) if k % size == 0 => Val { e: Expr::Const(k / size, Ty::INT), ty: CType::int() },
                        _ => {
                            let construct = format!("`{name}` on a pointer to a type wider than a byte by an operand that is not a whole number of elements (GCC adds bytes)");
                            self.unsupported.push(Unsupported { span, construct });
                            v
                        }
                    }
                }
                _ => v,
            };
            let v = Val { e: self.convert(v, &ty), ty: ty.clone() };
            let vt = self.temp(ty.clone());
            self.emit(Action::Assign(Lval::Var(vt), v.e), span);
            self.emit(Action::AtomicBegin, span);
            self.emit(Action::Assign(Lval::Var(old), Expr::Load(lv.clone())), span);
            let r = if matches!(ty, CType::Pointer(_)) {
                let d = Val { e: Expr::Load(Lval::Var(vt)), ty: long() };
                let d = Val { e: self.convert(d, &long()), ty: long() };
                self.arith(op, oldv(), d)
            } else {
                self.arith(op, oldv(), Val { e: Expr::Load(Lval::Var(vt)), ty: ty.clone() })
            };
            let mut e = self.convert(r, &ty);
            if nand {
                e = Expr::Unary(UnOp::BitNot, Box::new(e), ty.scalar(self.dm()));
            }
            let newt = self.temp(ty.clone());
            self.emit(Action::Assign(Lval::Var(newt), e), span);
            self.emit(Action::Assign(lv, Expr::Load(Lval::Var(newt))), span);
            self.emit(Action::AtomicEnd, span);
            return Ok(Some(if new { Val { e: Expr::Load(Lval::Var(newt)), ty } } else { oldv() }));
        }
        let st = ty.scalar(self.dm());
        match name {
            "__atomic_load_n" => {
                self.effect(&args[1])?;
                self.atomic_access(Action::Assign(Lval::Var(old), Expr::Load(lv)), span);
                Ok(Some(oldv()))
            }
            "__atomic_load" => {
                let (out, _) = self.atomic_target(&args[1])?;
                self.effect(&args[2])?;
                self.atomic_access(Action::Assign(Lval::Var(old), Expr::Load(lv)), span);
                self.emit(Action::Assign(out, Expr::Load(Lval::Var(old))), span);
                Ok(None)
            }
            "__atomic_store_n" | "__atomic_store" | "__sync_lock_release" | "__atomic_clear" => {
                let v = match name {
                    "__atomic_store_n" => {
                        let v = self.value(&args[1])?;
                        self.convert(v, &ty)
                    }
                    "__atomic_store" => {
                        let (src, _) = self.atomic_target(&args[1])?;
                        Expr::Load(src)
                    }
                    _ => Expr::Const(0, st),
                };
                for a in args.iter().skip(if name == "__sync_lock_release" { 1 } else { 2 }) {
                    self.effect(a)?;
                }
                self.emit(Action::Assign(Lval::Var(old), v), span);
                self.atomic_access(Action::Assign(lv, Expr::Load(Lval::Var(old))), span);
                Ok(None)
            }
            "__sync_lock_test_and_set" | "__atomic_exchange_n" | "__atomic_exchange" | "__atomic_test_and_set" => {
                let newt = self.temp(ty.clone());
                let v = match name {
                    "__atomic_exchange" => {
                        let (src, _) = self.atomic_target(&args[1])?;
                        Expr::Load(src)
                    }
                    "__atomic_test_and_set" => Expr::Const(1, st),
                    _ => {
                        let v = self.value(&args[1])?;
                        self.convert(v, &ty)
                    }
                };
                self.emit(Action::Assign(Lval::Var(newt), v), span);
                let out = if name == "__atomic_exchange" { Some(self.atomic_target(&args[2])?.0) } else { None };
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(old), Expr::Load(lv.clone())), span);
                self.emit(Action::Assign(lv, Expr::Load(Lval::Var(newt))), span);
                self.emit(Action::AtomicEnd, span);
                if let Some(out) = out {
                    self.emit(Action::Assign(out, Expr::Load(Lval::Var(old))), span);
                    return Ok(None);
                }
                if name == "__atomic_test_and_set" {
                    let b = Expr::Binary(BinOp::Ne, Box::new(Expr::Load(Lval::Var(old))), Box::new(Expr::Const(0, st)), Ty::INT);
                    return Ok(Some(Val { e: b, ty: CType::Bool }));
                }
                Ok(Some(oldv()))
            }
            "__sync_bool_compare_and_swap" | "__sync_val_compare_and_swap" => {
                let e = self.value(&args[1])?;
                let e = self.convert(e, &ty);
                let d = self.value(&args[2])?;
                let d = self.convert(d, &ty);
                let (et, dt) = (self.temp(ty.clone()), self.temp(ty.clone()));
                self.emit(Action::Assign(Lval::Var(et), e), span);
                self.emit(Action::Assign(Lval::Var(dt), d), span);
                self.emit(Action::AtomicBegin, span);
                self.emit(Action::Assign(Lval::Var(old), Expr::Load(lv.clone())), span);
                let differ = self.branch(Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(old))), Box::new(Expr::Load(Lval::Var(et))), Ty::INT), span);
                self.emit(Action::Assign(lv, Expr::Load(Lval::Var(dt))), span);
                self.cur.extend(differ);
                self.emit(Action::AtomicEnd, span);
                if name == "__sync_bool_compare_and_swap" {
                    let b = Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(old))), Box::new(Expr::Load(Lval::Var(et))), Ty::INT);
                    return Ok(Some(Val { e: b, ty: CType::Bool }));
                }
                Ok(Some(oldv()))
            }
            "__atomic_compare_exchange_n" | "__atomic_compare_exchange" => self.atomic_compare_exchange(name, args, lv, &ty, old, span),
            _ => unreachable!("modelled built-in `{name}`"),
        }
    }

    /// `__atomic_compare_exchange(_n)` on `lv` of type `ty`, reading into `old`: a strong or
    /// weak exchange that writes the current value back to `*expected` when it fails.
    fn atomic_compare_exchange(&mut self, name: &str, args: &'a [Node<Expression>], lv: Lval, ty: &CType, old: VarId, span: Span) -> Result<Option<Val>, Fatal> {
        let (exp, _) = self.atomic_target(&args[1])?;
        let exp = self.stabilize(exp, span);
        let d = if name == "__atomic_compare_exchange" {
            let (src, _) = self.atomic_target(&args[2])?;
            Expr::Load(src)
        } else {
            let d = self.value(&args[2])?;
            self.convert(d, ty)
        };
        let dt = self.temp(ty.clone());
        self.emit(Action::Assign(Lval::Var(dt), d), span);
        let weak = self.value(&args[3])?.e;
        for a in &args[4..] {
            self.effect(a)?;
        }
        let ok = self.temp(CType::Bool);
        let et = self.temp(ty.clone());
        self.emit(Action::Assign(Lval::Var(et), Expr::Load(exp.clone())), span);
        self.emit(Action::AtomicBegin, span);
        self.emit(Action::Assign(Lval::Var(old), Expr::Load(lv.clone())), span);
        let mut differ = self.branch(Expr::Binary(BinOp::Eq, Box::new(Expr::Load(Lval::Var(old))), Box::new(Expr::Load(Lval::Var(et))), Ty::INT), span);
        if matches!(weak, Expr::Const(k, _) if k != 0) {
            // A weak exchange may fail spuriously: the hardware's choice, an input. GCC makes
            // an exchange weak only for a constant argument; any other is strong.
            let spurious = self.branch(Expr::Nondet(Ty::Bool), span);
            differ.extend(spurious);
        }
        self.emit(Action::Assign(lv, Expr::Load(Lval::Var(dt))), span);
        self.emit(Action::Assign(Lval::Var(ok), Expr::Const(1, Ty::Bool)), span);
        let swapped = std::mem::take(&mut self.cur);
        self.cur = std::mem::take(&mut differ);
        self.emit(Action::Assign(Lval::Var(ok), Expr::Const(0, Ty::Bool)), span);
        self.cur.extend(swapped);
        self.emit(Action::AtomicEnd, span);
        // On failure the current value is written back to `*expected`.
        let failed = self.branch(Expr::Load(Lval::Var(ok)), span);
        let fine = std::mem::take(&mut self.cur);
        self.cur = failed;
        self.emit(Action::Assign(exp, Expr::Load(Lval::Var(old))), span);
        self.cur.extend(fine);
        Ok(Some(Val { e: Expr::Load(Lval::Var(ok)), ty: CType::Bool }))
    }

    /// A string literal: a static `char` array holding its bytes and the NUL, written once
    /// at the program's start. Returns the address of its first character.
    pub(super) fn string_literal(&mut self, parts: &[String], span: Span) -> Val {
        let chty = CType::Int(IntTy { bits: 8, signed: true }, "char".into());
        let Some(bytes) = literal_bytes(parts) else {
            return Val { e: self.havoc(Ty::Ptr, "a wide string literal", span), ty: CType::Pointer(Box::new(chty)) };
        };
        let key = parts.concat();
        let v = match self.literals.get(&key) {
            Some(v) => *v,
            None => {
                let ty = CType::Array(Box::new(chty.clone()), Some(bytes.len() as u64 + 1));
                let v = self.new_var("$str", ty, VarKind::Global, Some(span));
                self.literals.insert(key, v);
                self.literal_inits.push((v, bytes, span));
                v
            }
        };
        self.vars[v.index()].addr_taken = true;
        Val { e: Expr::AddrOf(Lval::Index(Box::new(Lval::Var(v)), Box::new(idx(0)))), ty: CType::Pointer(Box::new(chty)) }
    }

    /// `char a[n] = "..."`: the bytes, the NUL, then zeros to the end of the array.
    pub(super) fn init_from_literal(&mut self, lv: Lval, ty: &CType, parts: &[String], span: Span) {
        let CType::Array(_, n) = ty else { return };
        let Some(bytes) = literal_bytes(parts) else {
            if let Some(ls) = self.all_leaves(&Obj { base: Base::Array(lv, 0), elem: CType::Int(IntTy { bits: 8, signed: true }, "char".into()), len: *n }) {
                self.havoc_leaves(ls, "a wide string literal", span);
            }
            return;
        };
        let n = n.unwrap_or(bytes.len() as u64 + 1).min(LEAF_LIMIT as u64);
        let st = Ty::Int(IntTy { bits: 8, signed: true });
        for i in 0..n {
            let b = bytes.get(i as usize).copied().unwrap_or(0);
            self.emit(Action::Assign(Lval::Index(Box::new(lv.clone()), Box::new(idx(i as i128))), Expr::Const(st.convert(b as i128, self.dm()), st)), span);
        }
    }

    /// Writes every string literal's bytes at the start of the root thread, before anything
    /// can read them (static storage starts zero, so only the non-zero bytes are written).
    pub(super) fn emit_literal_prologue(&mut self) {
        if self.literal_inits.is_empty() || self.templates.is_empty() {
            return;
        }
        let saved_tpl = self.tpl;
        let saved_cur = std::mem::take(&mut self.cur);
        self.tpl = TemplateId(0);
        let old_entry = self.templates[0].entry;
        let span = self.locs[old_entry.index()].span;
        let first = self.new_loc(Action::Skip, span);
        self.cur = vec![first];
        let st = Ty::Int(IntTy { bits: 8, signed: true });
        for (v, bytes, _) in std::mem::take(&mut self.literal_inits) {
            for (i, b) in bytes.iter().enumerate() {
                if *b != 0 {
                    let lv = Lval::Index(Box::new(Lval::Var(v)), Box::new(idx(i as i128)));
                    self.emit(Action::Assign(lv, Expr::Const(st.convert(*b as i128, self.dm()), st)), span);
                }
            }
        }
        self.place(old_entry);
        self.templates[0].entry = first;
        self.tpl = saved_tpl;
        self.cur = saved_cur;
    }
}

/// The function a routine argument names, through casts and `&`.
fn routine_name(e: &Expression) -> Option<String> {
    match e {
        Expression::Identifier(id) => Some(id.node.name.clone()),
        Expression::Cast(c) => routine_name(&c.node.expression.node),
        Expression::UnaryOperator(u) if matches!(u.node.operator.node, UnaryOperator::Address) => routine_name(&u.node.operand.node),
        _ => None,
    }
}

/// The bytes of a narrow string literal (its parts concatenated, escapes decoded), without
/// the terminating NUL; `None` for wide and Unicode literals.
pub(super) fn literal_bytes(parts: &[String]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    for p in parts {
        let body = p.strip_prefix("u8").unwrap_or(p);
        let body = body.strip_prefix('"')?.strip_suffix('"')?;
        let b = body.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] != b'\\' {
                out.push(b[i]);
                i += 1;
                continue;
            }
            i += 1;
            let c = *b.get(i)?;
            i += 1;
            let v = match c {
                b'n' => b'\n',
                b't' => b'\t',
                b'r' => b'\r',
                b'a' => 7,
                b'b' => 8,
                b'f' => 12,
                b'v' => 11,
                b'e' => 27,
                b'x' => {
                    let mut v: u32 = 0;
                    while i < b.len() && b[i].is_ascii_hexdigit() {
                        v = v.wrapping_mul(16) + (b[i] as char).to_digit(16)?;
                        i += 1;
                    }
                    v as u8
                }
                b'0'..=b'7' => {
                    let mut v = (c - b'0') as u32;
                    let mut k = 1;
                    while k < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                        v = v * 8 + (b[i] - b'0') as u32;
                        i += 1;
                        k += 1;
                    }
                    v as u8
                }
                other => other,
            };
            out.push(v);
        }
    }
    Some(out)
}
