//! The concurrent intermediate representation every engine reads.
//!
//! A [`Program`] is a set of thread [`Template`]s. Each template is a control-flow graph of
//! [`Location`]s; a location carries exactly one [`Action`] and its successors. Branching is
//! nondeterministic: a C condition becomes a pair of `assume` locations (DUET's program model).
//!
//! Semantics every engine relies on:
//! - An action executes atomically, and the front-end guarantees that an action touches at most
//!   one *shared* abstract memory location (see [`memory`]), so atomic actions are faithful to
//!   C's interleaving semantics. A read-modify-write such as `g++` becomes two actions.
//! - Expressions are pure: calls, assignments and short-circuit operators are lowered to
//!   control flow and temporaries before they reach the IR.
//! - A location with no successors ends its thread (normal return, `abort`, `pthread_exit`).
//! - The root template is `main`, or a synthesised driver with `--no-whole-program`; each
//!   `pthread_create` site creates its own template, with multiplicity one or unbounded.
//! - Every location has its `mod`, `ref` and `kill` sets over abstract locations, and every
//!   lock operation its lock ([`memory`]).
//! - A function's address is a pointer constant in a reserved range below every object
//!   ([`memory::function_address`]), the same exact, distinct, non-null value in every engine;
//!   calls through pointers are already resolved into guarded inlined calls, so engines never
//!   call a pointer.
//!
//! # Exactness
//!
//! Every nondeterministic value says where it comes from, so that a violation can be told from
//! an artefact of the model. [`Expr::Nondet`] is a program input (`__VERIFIER_nondet_*`, an
//! uninitialised local, the clock): a witness may rest on it. `main`'s `argc` is such an input,
//! assumed nonnegative (C11 5.1.2.2.1); its `argv` and `envp` point at arrays the environment
//! builds, which the IR does not model, so they are havocs. [`Expr::Havoc`] stands for what the
//! IR does not model exactly (an undefined function's result and writes, floating point, a join
//! value the front-end cannot attribute); its id indexes [`Program::approximations`], which
//! names it with its source position. Three rules follow.
//!
//! 1. A havoc covers everything the real code can do. An unmodelled call writes every scalar of
//!    the whole object each pointer argument points into (pointer arithmetic and `container_of`
//!    reach all of it), and of every object whose address any unmodelled call received, since
//!    the callee may have kept it (the lowering adds those writes after every such call, in
//!    every thread). A function the program declares but no file given defines lives in
//!    another translation unit, which may also write every global with external linkage by
//!    name, so its call havocs each of them; functions declared in system headers (the C
//!    library) are taken to write no program global by name. That other unit may also call, by
//!    name, any function of the program with external linkage (but `main`) or one whose address
//!    is taken: then a call of an undefined function that is not the C library's is incomplete
//!    too. When the front-end cannot name every object written (a pointer into memory of
//!    unknown extent, pointers stored in the object, an address passed as an integer or inside
//!    a structure passed by value, a function the callee may call, a local of another thread, a
//!    pointer the callee returns after some address escaped), the approximation is recorded
//!    with `covers: false`, and no verdict of the program is `safe` or `bounded-safe`
//!    ([`Program::incomplete_approximation`]): the executions it leaves out may fail within the
//!    bound.
//! 2. The replay (`interp`) taints every value computed from a havoc, and every step after
//!    control depended on one (an `assume`, lock or join on a tainted value, or an unmodelled
//!    call, which may block): a tainted failure is `unknown`, naming the approximation, never
//!    `violated`.
//! 3. Exact models are lowered to plain IR (loads, stores, branches, atomic sections) in
//!    `frontend/lower/library.rs`, so COARSEN, the bounded search and the interpreter execute
//!    the same semantics; what a model cannot follow falls back to rule 1.
//!
//! Undefined behaviour (signed overflow, running off the end of an array in a string function)
//! is excluded from verdicts rather than approximated; a signed left shift that overflows is
//! not such a case (GCC defines it to wrap, and every engine wraps it). A synchronisation
//! primitive the IR does not model is an unsupported construct, since a missing block could
//! make a replayed interleaving that no real execution has. The IR's mutex blocks an owner that
//! locks it again (glibc's normal and adaptive kinds); a recursive mutex lets the owner go on,
//! so it is unsupported rather than a lost execution, and so are a mutex declared in a block a
//! loop enters again (each pass has a new object; the IR has one per variable) and a detached
//! thread in a program that joins threads. An error-checking mutex returns `EDEADLK` to a
//! relocking owner: the front-end's passes report a lock a thread may already hold. Unlocking a
//! mutex the thread does not hold releases it (glibc's normal mutex; error-checking `EPERM` is
//! not modelled): COARSEN and the movers take no mutual exclusion from a mutex some reachable
//! unlock may free without holding it, and the finite projection lets an unlock through a
//! pointer with several targets free any definite mutex it may designate. The interpreter
//! treats a read, write or lock below the first object's address (NULL) as a step that cannot
//! be taken: a crash, never a value read.

pub mod display;
pub(crate) mod dot;
pub mod joins;
pub(crate) mod memory;
pub(crate) mod rename;
pub(crate) mod types;
pub(crate) mod visit;

use std::fmt;

pub use memory::{AbsKind, AbsLoc, LockRef, MemoryModel};
pub use types::{CType, IntTy, Record, RecordId, Ty};

/// Index of a variable in [`Program::vars`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a location in [`Program::locs`]; unique across all templates.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocId(pub u32);

/// Index of a thread template in [`Program::templates`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TemplateId(pub u32);

/// Index of a source assertion in [`Program::assertions`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AssertId(pub u32);

/// Index of an over-approximation in [`Program::approximations`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ApproxId(pub u32);

/// Index of a `malloc`-like allocation site.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AllocId(pub u32);

impl VarId {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl LocId {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl TemplateId {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl AssertId {
    /// The index as usize.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A position in an original source file (after mapping preprocessor line markers back).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    /// Index into [`Program::files`].
    pub file: u32,
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in the preprocessed line, which equals the source column unless the
    /// line came from a macro expansion).
    pub col: u32,
}

/// How the program's threads are set up (DUET's `-no-whole-program` and `-parameterized`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub struct Mode {
    /// `main` starts the program and the threads are what it creates.
    pub whole_program: bool,
    /// Every thread template has unboundedly many instances.
    pub parameterized: bool,
}

/// How many instances of a template may run at once.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Multiplicity {
    /// Exactly one instance per run of its creator.
    One,
    /// Unboundedly many instances (created in a loop, by an unbounded creator, or
    /// parameterized mode).
    Unbounded,
}

/// Why a variable exists and who can see it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// A global (or function-static) variable, shared by all threads.
    Global,
    /// A `_Thread_local`/`__thread` global: one copy per thread.
    ThreadLocal,
    /// A local variable or parameter of a (possibly inlined) function in a template.
    Local(TemplateId),
    /// A temporary introduced by lowering, local to its template.
    Temp(TemplateId),
}

/// A program variable.
#[derive(Clone, Debug)]
pub struct Variable {
    /// Display name, unique in the program (inlined copies get a `#n` suffix).
    pub name: String,
    /// The name as written in the source.
    pub source_name: String,
    /// Its C type.
    pub ty: CType,
    /// Global, thread-local, local or temporary.
    pub kind: VarKind,
    /// Whether `&v` occurs (other than as a mutex or thread-handle argument), which sends the
    /// variable into the type-based memory model.
    pub addr_taken: bool,
    /// Declaration site, if it has one in the source.
    pub span: Option<Span>,
}

impl Variable {
    /// True for globals: values every thread shares (before the alias model is applied).
    pub fn is_global(&self) -> bool {
        matches!(self.kind, VarKind::Global)
    }
}

/// Unary operators of pure expressions.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation.
    Neg,
    /// Bitwise complement.
    BitNot,
    /// Logical negation: 1 if the operand is 0, else 0.
    Not,
}

/// Binary operators of pure expressions. Comparisons yield 0 or 1.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// C division, truncating towards zero.
    Div,
    /// C remainder, with the sign of the dividend.
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    /// True for the six comparison operators.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
    }

    /// The comparison with its operands exchanged (`a < b` is `b > a`); `None` for operators
    /// that are not comparisons.
    pub fn swap_operands(self) -> Option<BinOp> {
        Some(match self {
            BinOp::Lt => BinOp::Gt,
            BinOp::Le => BinOp::Ge,
            BinOp::Gt => BinOp::Lt,
            BinOp::Ge => BinOp::Le,
            BinOp::Eq | BinOp::Ne => self,
            _ => return None,
        })
    }

    /// The comparison that holds exactly when `self` does not.
    pub fn negate_comparison(self) -> Option<BinOp> {
        Some(match self {
            BinOp::Lt => BinOp::Ge,
            BinOp::Le => BinOp::Gt,
            BinOp::Gt => BinOp::Le,
            BinOp::Ge => BinOp::Lt,
            BinOp::Eq => BinOp::Ne,
            BinOp::Ne => BinOp::Eq,
            _ => return None,
        })
    }

    /// The C spelling of the operator.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }
}

/// A pure expression. Every operator node carries the scalar type it computes in, after C's
/// usual arithmetic conversions, so engines can model wrap-around exactly.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Expr {
    /// An integer constant of the given type.
    Const(i128, Ty),
    /// The value stored in an lvalue of scalar type.
    Load(Lval),
    /// The address of an lvalue.
    AddrOf(Lval),
    /// A unary operation.
    Unary(UnOp, Box<Expr>, Ty),
    /// A binary operation.
    Binary(BinOp, Box<Expr>, Box<Expr>, Ty),
    /// A conversion to another scalar type (truncation, sign change, or `!= 0` for `_Bool`).
    Cast(Ty, Box<Expr>),
    /// Any value of the type, chosen by the program's input (`__VERIFIER_nondet_*`, an
    /// uninitialised local): a witness may rest on it.
    Nondet(Ty),
    /// Any value of the type, standing for what the IR does not model exactly (an undefined
    /// function's result, floating point): a proof may use it, a witness may not rest on it.
    Havoc(Ty, ApproxId),
}

impl Expr {
    /// The integer constant `v` of type `int`.
    pub fn int(v: i128) -> Expr {
        Expr::Const(v, Ty::INT)
    }

    /// The scalar type of the expression's value.
    pub fn ty(&self, prog: &Program) -> Ty {
        match self {
            Expr::Const(_, t) | Expr::Unary(_, _, t) | Expr::Binary(_, _, _, t) | Expr::Cast(t, _) => *t,
            Expr::Nondet(t) | Expr::Havoc(t, _) => *t,
            Expr::Load(lv) => prog.lval_type(lv).scalar(prog.data_model),
            Expr::AddrOf(_) => Ty::Ptr,
        }
    }

    /// The constant value, if the expression is a constant.
    pub fn as_const(&self) -> Option<i128> {
        match self {
            Expr::Const(v, _) => Some(*v),
            _ => None,
        }
    }

    /// Calls `f` on every lvalue that this expression reads (not those whose address is taken).
    pub fn for_each_load<'a>(&'a self, f: &mut dyn FnMut(&'a Lval)) {
        match self {
            Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
            Expr::Load(lv) => {
                f(lv);
                lv.for_each_load_inside(f);
            }
            Expr::AddrOf(lv) => lv.for_each_load_inside(f),
            Expr::Unary(_, e, _) | Expr::Cast(_, e) => e.for_each_load(f),
            Expr::Binary(_, a, b, _) => {
                a.for_each_load(f);
                b.for_each_load(f);
            }
        }
    }
}

/// A memory location designator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Lval {
    /// A named variable (scalar or aggregate).
    Var(VarId),
    /// The object a pointer expression points to; the type is the pointee type.
    Deref(Box<Expr>, CType),
    /// An element of an array-typed lvalue.
    Index(Box<Lval>, Box<Expr>),
    /// A field of a struct- or union-typed lvalue (by position in the record).
    Field(Box<Lval>, RecordId, u32),
}

impl Lval {
    /// Calls `f` on every lvalue read while *evaluating the address* of this lvalue
    /// (pointer dereferences and index expressions), not the lvalue itself.
    pub fn for_each_load_inside<'a>(&'a self, f: &mut dyn FnMut(&'a Lval)) {
        match self {
            Lval::Var(_) => {}
            Lval::Deref(e, _) => e.for_each_load(f),
            Lval::Index(base, idx) => {
                base.for_each_load_inside(f);
                idx.for_each_load(f);
            }
            Lval::Field(base, _, _) => base.for_each_load_inside(f),
        }
    }

    /// Whether the lvalue selects a member of a union on its way: then it may hold what
    /// another member wrote, of another type and range.
    pub fn through_union(&self, records: &[Record]) -> bool {
        match self {
            Lval::Var(_) | Lval::Deref(..) => false,
            Lval::Index(b, _) => b.through_union(records),
            Lval::Field(b, r, _) => records[r.0 as usize].is_union || b.through_union(records),
        }
    }

    /// The variable at the root of a path of fields and indexes, if no dereference is involved.
    pub fn root_var(&self) -> Option<VarId> {
        match self {
            Lval::Var(v) => Some(*v),
            Lval::Deref(..) => None,
            Lval::Index(b, _) | Lval::Field(b, _, _) => b.root_var(),
        }
    }
}

/// What ends a thread or the program at a location with no successors.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Halt {
    /// `abort()`: the program stops; not a failure under `unreach-call`.
    Abort,
    /// `exit()` or a return from `main`: the whole program stops.
    Exit,
    /// A thread's start routine returned or called `pthread_exit`.
    ThreadExit,
}

/// The atomic step a location performs.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// No effect (entry points, joins of control flow, labels).
    Skip,
    /// Store the value of the expression into a scalar lvalue.
    Assign(Lval, Expr),
    /// Block unless the condition is non-zero.
    Assume(Expr),
    /// A failure point: failing if the condition is zero when reached.
    Assert(AssertId, Expr),
    /// `malloc`-like allocation: store a pointer to a fresh object of the given element type.
    Alloc(Lval, AllocId, CType),
    /// Block until the mutex is free, then hold it.
    Acquire(Lval),
    /// Release the mutex.
    Release(Lval),
    /// A failed `pthread_mutex_trylock`: block unless some thread holds the mutex.
    LockBusy(Lval),
    /// Create a thread of the template; store its handle, pass it the argument.
    Fork {
        /// The template the new thread runs.
        template: TemplateId,
        /// Where `pthread_create` stores the thread id.
        handle: Option<Lval>,
        /// The start routine's argument.
        arg: Option<Expr>,
    },
    /// `pthread_join`: block until the thread with this handle has ended.
    Join(Expr),
    /// Enter an atomic section: no other thread runs until the matching end.
    AtomicBegin,
    /// Leave an atomic section.
    AtomicEnd,
    /// Stop the thread (or the program); such a location has no successors.
    Halt(Halt),
}

/// A node of a template's control-flow graph.
#[derive(Clone, Debug)]
pub struct Location {
    /// The template this location belongs to.
    pub template: TemplateId,
    /// Source position of the statement or expression it came from.
    pub span: Span,
    /// The action it performs.
    pub action: Action,
    /// Control-flow successors (several means a nondeterministic choice).
    pub succs: Vec<LocId>,
    /// A thread standing here is inside an atomic section (it has begun and not ended one).
    pub atomic: bool,
}

/// A thread template: the inlined body of one start routine at one creation site.
#[derive(Clone, Debug)]
pub struct Template {
    /// Display name (the start routine, with `@n` when several sites create it).
    pub name: String,
    /// The start routine's name.
    pub function: String,
    /// First location.
    pub entry: LocId,
    /// All its locations, in creation order.
    pub locs: Vec<LocId>,
    /// How many instances may run at once.
    pub multiplicity: Multiplicity,
    /// The fork locations that create it (empty for the root template).
    pub spawned_at: Vec<LocId>,
    /// The start routine's parameters.
    pub params: Vec<VarId>,
}

/// A failure point in the source, possibly instantiated in several templates by inlining.
#[derive(Clone, Debug)]
pub struct Assertion {
    /// Source position of the failure call.
    pub span: Span,
    /// What the user wrote, e.g. `global == 0` or `reach_error()`.
    pub text: String,
    /// Which built-in made it a failure point.
    pub kind: AssertKind,
    /// The function whose body contains it.
    pub function: String,
    /// Its instances in the IR; empty when the function is never called.
    pub locs: Vec<LocId>,
}

/// The built-in that marks a failure point.
#[derive(Copy, Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum AssertKind {
    /// `assert(c)` or `__VERIFIER_assert(c)`.
    Assert,
    /// `reach_error()`, `__VERIFIER_error()` or `__assert_fail(...)`: failing if reached.
    Reach,
}

/// A construct the front-end cannot model; engines answer `unknown` and name it.
#[derive(Clone, Debug)]
pub struct Unsupported {
    /// Where it occurs.
    pub span: Span,
    /// What it is, e.g. "recursive call to `f`".
    pub construct: String,
}

/// A step whose semantics the IR over-approximates: its [`Expr::Havoc`] values are not
/// program inputs.
#[derive(Clone, Debug)]
pub struct Approximation {
    /// Where the approximated construct is.
    pub span: Span,
    /// What is approximated, e.g. "the result of undefined function `f`".
    pub what: String,
    /// Whether the IR's havoc covers everything the construct can do, so that a proof may
    /// rest on it; when false, no assertion can be proved `safe`.
    pub covers: bool,
    /// Whether the construct may also decide which steps follow (an unmodelled call may block
    /// or synchronise): then everything a replay does after it rests on it.
    pub control: bool,
}

/// Size of `long` and pointers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default, serde::Serialize)]
pub enum DataModel {
    /// 64-bit `long` and pointers (x86-64 Linux).
    #[default]
    LP64,
    /// 32-bit `long` and pointers (`-m32`).
    ILP32,
}

/// A whole lowered program.
#[derive(Clone, Debug)]
pub struct Program {
    /// Source files referred to by spans; `files[0]` is the input.
    pub files: Vec<String>,
    /// Variables of all templates.
    pub vars: Vec<Variable>,
    /// Struct and union definitions.
    pub records: Vec<Record>,
    /// Locations of all templates.
    pub locs: Vec<Location>,
    /// Templates; `templates[0]` is the root thread (`main`, or the synthesised driver).
    pub templates: Vec<Template>,
    /// Source failure points.
    pub assertions: Vec<Assertion>,
    /// Constructs that make every verdict `unknown`.
    pub unsupported: Vec<Unsupported>,
    /// Functions called without a definition, modelled as returning any value.
    pub external_calls: Vec<(String, Span)>,
    /// Over-approximated steps, indexed by [`ApproxId`].
    pub approximations: Vec<Approximation>,
    /// The mode flags the program was lowered with.
    pub mode: Mode,
    /// Type sizes used for wrap-around.
    pub data_model: DataModel,
    /// Number of allocation sites.
    pub alloc_sites: u32,
    /// Where the program makes a mutex error-checking, if it does: the IR's mutex blocks an
    /// owner that locks again, where such a mutex returns `EDEADLK`.
    pub errorcheck_mutex: Option<Span>,
    /// Character pointers moved by a byte count (the pointer before the move, and where):
    /// the memory model moves them by slots, which is C's meaning only inside objects of
    /// bytes (`frontend::passes` checks the objects they may point into).
    pub byte_moves: Vec<(Expr, Span)>,
    /// The variables whose addresses code without a definition may know (those passed to it,
    /// and every global with external linkage once the program calls such code): it may have
    /// stored one in an integer, so a pointer made from an integer may point to them.
    pub known_to_unknown_code: Vec<VarId>,
    /// The recursive calls the front-end lowered (callee, first call site), in lowering
    /// order: the functions whose inlined copies nest (see `frontend/lower/recursion.rs`).
    pub recursive_calls: Vec<(String, Span)>,
    /// The variables declared `_Atomic` (whole objects, or arrays of them), sorted: a load or
    /// store naming one directly is an atomic access, never part of a data race (C11 5.1.2.4).
    pub atomic_vars: Vec<VarId>,
    /// Whether `_Atomic` objects may also be reached where `atomic_vars` does not say (an
    /// `_Atomic` member, a pointer to an `_Atomic` type): an access may then be atomic unseen.
    pub atomic_elsewhere: bool,
    /// The alias model: abstract locations, mod/ref sets, lock identities.
    pub memory: MemoryModel,
    /// The function definitions of the input, by source extent (for witnesses, which name
    /// the function around a source position; inlining leaves locations no function).
    pub functions: Vec<SourceFunction>,
    /// What the front-end chose that shapes every claim, as (title, text) for the report: the
    /// entry points run as threads without a whole program, the data model a preprocessed file
    /// was read with.
    pub notes: Vec<(String, String)>,
}

/// A function definition's name and the lines it spans.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFunction {
    /// Its name.
    pub name: String,
    /// Index into [`Program::files`].
    pub file: u32,
    /// The line its definition starts on.
    pub first_line: u32,
    /// The line its body ends on.
    pub last_line: u32,
}

impl Program {
    /// The function definition containing a source line (`None` outside every definition, in
    /// a system header's, or on a line shared by several definitions).
    pub fn function_at(&self, s: Span) -> Option<&SourceFunction> {
        let mut on = self.functions.iter().filter(|f| f.file == s.file && f.first_line <= s.line && s.line <= f.last_line);
        let f = on.next()?;
        on.next().is_none().then_some(f)
    }

    /// The variable with this id.
    pub fn var(&self, v: VarId) -> &Variable {
        &self.vars[v.index()]
    }

    /// The location with this id.
    pub fn loc(&self, l: LocId) -> &Location {
        &self.locs[l.index()]
    }

    /// The template with this id.
    pub fn template(&self, t: TemplateId) -> &Template {
        &self.templates[t.index()]
    }

    /// The over-approximation with this id, described with its source position.
    pub fn approx_str(&self, a: ApproxId) -> String {
        let ap = &self.approximations[a.0 as usize];
        format!("{} at {}", ap.what, self.span_str(ap.span))
    }

    /// The first over-approximation whose havoc does not cover everything it stands for.
    pub fn incomplete_approximation(&self) -> Option<ApproxId> {
        self.approximations.iter().position(|a| !a.covers).map(|i| ApproxId(i as u32))
    }

    /// The assertion with this id.
    pub fn assertion(&self, a: AssertId) -> &Assertion {
        &self.assertions[a.index()]
    }

    /// Location ids of the whole program.
    pub fn loc_ids(&self) -> impl Iterator<Item = LocId> {
        (0..self.locs.len() as u32).map(LocId)
    }

    /// Control-flow predecessors of every location.
    pub fn predecessors(&self) -> Vec<Vec<LocId>> {
        let mut preds = vec![Vec::new(); self.locs.len()];
        for (i, l) in self.locs.iter().enumerate() {
            for s in &l.succs {
                preds[s.index()].push(LocId(i as u32));
            }
        }
        preds
    }

    /// The C type of an lvalue.
    pub fn lval_type(&self, lv: &Lval) -> CType {
        match lv {
            Lval::Var(v) => self.var(*v).ty.clone(),
            Lval::Deref(_, t) => t.clone(),
            Lval::Index(b, _) => match self.lval_type(b) {
                CType::Array(elem, _) => *elem,
                CType::Pointer(elem) => *elem,
                other => other,
            },
            Lval::Field(_, r, i) => self.records[r.0 as usize].fields[*i as usize].1.clone(),
        }
    }

    /// `file:line:col` of a span.
    pub fn span_str(&self, s: Span) -> String {
        format!("{}:{}:{}", self.file_name(s), s.line, s.col)
    }

    /// The file name of a span.
    pub fn file_name(&self, s: Span) -> &str {
        self.files.get(s.file as usize).map(|s| s.as_str()).unwrap_or("?")
    }

    /// The stable id of an assertion: `file:line:col` of its failure call.
    pub fn assertion_id(&self, a: AssertId) -> String {
        self.span_str(self.assertion(a).span)
    }
}

impl fmt::Display for LocId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "L{}", self.0)
    }
}
