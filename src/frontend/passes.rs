//! Passes over the lowered IR that establish its invariants: dead code removed, atomic
//! sections marked, one shared access per action, template multiplicities, and the alias model.
//!
//! They also turn into unsupported constructs what the IR cannot hold exactly, since a proof
//! or a replay over a wrong model would be wrong: a character lvalue on a wider scalar (a byte
//! view), a wider lvalue over an object of bytes (for heap and unknown memory too, whose cells
//! are per accessed type, when a site is accessed at both widths), arithmetic on an address
//! converted to an integer, a character pointer moved by bytes inside an object of wider
//! scalars (`Program::byte_moves`), and a member access to a union whose members differ in
//! their scalars (the IR lays every member over the same slots). A member access through a
//! pointer that may reach an object of another record type (`container_of` of a bare list
//! head) is guarded by that object's address range, an incomplete approximation (no `safe`).

use crate::ir::memory::LockId;
use crate::ir::*;
use hashbrown::HashSet;

/// Runs every pass in order.
pub(crate) fn finish(prog: &mut Program) {
    prune_unreachable(prog);
    bypass_skips(prog);
    mark_atomic(prog);
    split_shared_accesses(prog);
    order_reverse_postorder(prog);
    compute_multiplicity(prog);
    prog.memory = MemoryModel::build(prog);
    if guard_mistyped(prog) {
        order_reverse_postorder(prog);
        prog.memory = MemoryModel::build(prog);
    }
    reject_byte_views(prog);
    reject_byte_moves(prog);
    reject_address_arithmetic(prog);
    reject_mismatched_unions(prog);
    reject_errorcheck_relocks(prog);
}

/// `list_for_each_entry` over a `struct list_head` that no entry embeds (a bare head in a
/// global) computes `container_of` of the head too: a `struct s *` that lands on the head's
/// object, which holds no `struct s`. The loop test stops before any member is accessed there,
/// but the flow-insensitive alias model cannot see that, and the object has no cells of the
/// accessed type to give such an access. So each member access through a pointer that may
/// reach an object of another record type (`MemoryModel::mistyped`) is guarded: it proceeds
/// only where the accessed record lies wholly outside that object (`container_of` of a member
/// moves less than the record's size), and the alias model gives it none of the object's
/// cells. An execution that does access the object so (goblint's `evilcollapse`, walking a
/// head as an entry) is left out, so the guard is recorded as an incomplete approximation: no
/// assertion of the program is proved `safe`, while a violation the replay reaches, having
/// passed every guard with exact addresses, is a real execution. Where a guard cannot read the
/// pointer the access reads (it may change in between, or names another thread's object), the
/// access stays an unsupported construct. Returns whether any guard was added.
fn guard_mistyped(prog: &mut Program) -> bool {
    let found = prog.memory.mistyped.clone();
    if found.is_empty() {
        return false;
    }
    let preds = prog.predecessors();
    let mut added = false;
    let mut noted: Vec<(Span, VarId)> = Vec::new();
    let mut i = 0;
    while i < found.len() {
        let l = found[i].loc;
        let group: Vec<&memory::Mistyped> = found[i..].iter().take_while(|m| m.loc == l).collect();
        i += group.len();
        let (template, span, atomic) = (prog.loc(l).template, prog.loc(l).span, prog.loc(l).atomic);
        let unguardable = group.iter().find(|m| {
            let own_object = match prog.var(m.object).kind {
                VarKind::Global => true,
                // `&x` in the guard names the accessing thread's own copy.
                VarKind::Local(t) | VarKind::Temp(t) => t == template && prog.template(t).multiplicity == Multiplicity::One,
                VarKind::ThreadLocal => false,
            };
            let mut shared_read = false;
            Expr::AddrOf(m.base.clone()).for_each_load(&mut |lv| shared_read |= prog.memory.is_shared(prog, lv));
            !own_object || (shared_read && !atomic)
        });
        if let Some(m) = unguardable {
            let name = prog.var(m.object).name.clone();
            prog.unsupported.push(Unsupported { span, construct: format!("a member access through a pointer to an object of another type (`{name}`), which the front-end cannot guard") });
            continue;
        }
        // Per guard a choice between the two sides of the object; the chain ends at `l`.
        let mut next = l;
        for m in group.iter().rev() {
            let ptr_long = Ty::Int(IntTy { bits: 64, signed: true });
            let base = Expr::AddrOf(m.base.clone());
            let object = Expr::AddrOf(Lval::Var(m.object));
            let past = |e: Expr| Expr::Binary(BinOp::Add, Box::new(e), Box::new(Expr::Const(1, ptr_long)), Ty::Ptr);
            let sides = [Expr::Binary(BinOp::Ge, Box::new(base.clone()), Box::new(past(object.clone())), Ty::INT), Expr::Binary(BinOp::Le, Box::new(past(base)), Box::new(object), Ty::INT)];
            let mut succs = Vec::new();
            for cond in sides {
                succs.push(LocId(prog.locs.len() as u32));
                prog.locs.push(Location { template, span, action: Action::Assume(cond), succs: vec![next], atomic });
            }
            next = LocId(prog.locs.len() as u32);
            prog.locs.push(Location { template, span, action: Action::Skip, succs, atomic });
            if !noted.contains(&(span, m.object)) {
                noted.push((span, m.object));
                let record = match prog.lval_type(&m.base) {
                    CType::Record(r) => {
                        let rec = &prog.records[r.0 as usize];
                        format!("`{} {}`", if rec.is_union { "union" } else { "struct" }, rec.name)
                    }
                    _ => "member".into(),
                };
                let what = format!("a member access through a pointer that may reach `{}`, which holds no {record} there; executions in which it does are not analysed", prog.var(m.object).name);
                prog.approximations.push(Approximation { span, what, covers: false, control: false });
            }
        }
        for p in &preds[l.index()] {
            for s in &mut prog.locs[p.index()].succs {
                if *s == l {
                    *s = next;
                }
            }
        }
        if prog.templates[template.index()].entry == l {
            prog.templates[template.index()].entry = next;
        }
        added = true;
    }
    added
}

/// An error-checking mutex differs from the IR's only when its owner locks it again: the call
/// returns `EDEADLK` where the IR blocks, which would lose executions. So when the program
/// makes a mutex error-checking, a lock that a thread may already hold when it acquires it
/// (a may-analysis per template; a lock the alias model cannot name may be any of them) is an
/// unsupported construct. Unlocking one the thread does not hold returns `EPERM` and leaves it
/// alone, where the IR releases it; see the exactness notes of `ir`.
fn reject_errorcheck_relocks(prog: &mut Program) {
    let Some(made) = prog.errorcheck_mutex else { return };
    // The locks a thread may hold, and whether it may hold one the alias model cannot name.
    type May = (Vec<LockId>, bool);
    let step = |(held, any): &May, l: LocId| {
        let (mut held, mut any) = (held.clone(), *any);
        match (&prog.loc(l).action, prog.memory.lock_of[l.index()]) {
            (Action::Acquire(_), Some(LockRef::Exact(k))) if !held.contains(&k) => {
                held.push(k);
                held.sort_unstable();
            }
            (Action::Acquire(_), Some(LockRef::Exact(_))) => {}
            (Action::Acquire(_), _) => any = true,
            (Action::Release(_), Some(LockRef::Exact(k))) => held.retain(|x| *x != k),
            _ => {}
        }
        (held, any)
    };
    let join = |(a, x): &May, (b, y): &May| {
        let mut u = a.clone();
        u.extend(b.iter().filter(|k| !a.contains(k)));
        u.sort_unstable();
        (u, *x || *y)
    };
    let states = memory::lock_states(prog, (Vec::new(), false), step, join);
    let relock = (0..prog.locs.len()).find(|&i| {
        let Some((held, any)) = &states[i] else { return false };
        match (&prog.locs[i].action, prog.memory.lock_of[i]) {
            (Action::Acquire(_), Some(LockRef::Exact(k))) => *any || held.contains(&k),
            (Action::Acquire(_), _) => *any || !held.is_empty(),
            _ => false,
        }
    });
    if let Some(i) = relock {
        let at = format!("{}:{}", made.line, made.col);
        prog.unsupported.push(Unsupported {
            span: prog.locs[i].span,
            construct: format!("a thread that may lock again an error-checking mutex it holds (the program makes one error-checking at {at}; the relock returns EDEADLK instead of blocking)"),
        });
    }
}

/// C lets a character lvalue read or write any object byte by byte, but the IR keeps one
/// value per scalar: reading an `int` through an `unsigned char *` would give the whole
/// `int`, a behaviour the program does not have. Such an access, through a pointer whose
/// target may be a wider scalar, is reported as an unsupported construct (every verdict of
/// the file is then `unknown`) rather than analysed wrongly. So is the converse, a wider
/// lvalue over an object of bytes.
fn reject_byte_views(prog: &mut Program) {
    let heap = HeapWidths::of(&prog.memory);
    let mut found = Vec::new();
    for loc in &prog.locs {
        crate::ir::visit::action_lvals(&loc.action, &mut |lv| {
            if !matches!(lv, Lval::Deref(..) | Lval::Index(..)) || !found.is_empty() {
                return;
            }
            let access = prog.lval_type(lv);
            let raw = !through_member(lv);
            if access.is_scalar() && !matches!(access, CType::Bool | CType::Int(IntTy { bits: 8, .. }, _)) {
                // The converse: a wider lvalue over an object of bytes (`*(int *)buf`) reads
                // or writes one slot where C covers several bytes.
                let bytes = prog.memory.targets(prog, lv).into_iter().find_map(|a| {
                    let info = prog.memory.info(a);
                    match &info.kind {
                        memory::AbsKind::Var(_) | memory::AbsKind::Cell(..) if matches!(info.ty, Ty::Int(IntTy { bits: 8, .. }) | Ty::Bool) => {
                            Some(format!("an access wider than a byte to `{}`, an object of bytes", info.name))
                        }
                        memory::AbsKind::Heap(..) | memory::AbsKind::Region(_) if raw && heap.bytes.contains(&site_of(&info.kind)) => {
                            Some(format!("an access wider than a byte to {}, which the program also accesses byte by byte", heap_name(prog, site_of(&info.kind))))
                        }
                        _ => None,
                    }
                });
                if let Some(construct) = bytes {
                    found.push(Unsupported { span: loc.span, construct });
                }
                return;
            }
            let CType::Int(t, _) = access else { return };
            if t.bits != 8 {
                return;
            }
            let wider = prog.memory.targets(prog, lv).into_iter().find_map(|a| {
                let info = prog.memory.info(a);
                // A heap object keeps one cell per accessed type, so a byte view of its wider
                // scalars lands on a cell of its own and never sees their values.
                if let memory::AbsKind::Heap(..) | memory::AbsKind::Region(_) = &info.kind {
                    let site = site_of(&info.kind);
                    return (raw && heap.wide.contains(&site)).then(|| format!("a byte access (a character lvalue) to {}, which the program also accesses as wider scalars", heap_name(prog, site)));
                }
                let wide = match info.ty {
                    Ty::Int(w) => w.bits > 8,
                    Ty::Ptr | Ty::Float => true,
                    Ty::Bool => false,
                };
                wide.then(|| format!("a byte access (a character lvalue) to `{}`, a wider scalar", info.name))
            });
            if let Some(construct) = wider {
                found.push(Unsupported { span: loc.span, construct });
            }
        });
    }
    prog.unsupported.extend(found);
}

/// An address converted to an integer is, in the IR, one address per scalar from a base of its
/// own; C counts bytes. Comparing such integers, or converting one back, agrees with C, but
/// arithmetic on them (`(uintptr_t)p + sizeof(int)`, an alignment mask, a difference) does
/// not: it is reported as an unsupported construct. Integers that only travel through a
/// pointer (`(void *)(long)i` and back) hold no address and are left alone.
fn reject_address_arithmetic(prog: &mut Program) {
    let mut held: HashSet<memory::AbsLoc> = HashSet::new();
    loop {
        let mut changed = false;
        for loc in &prog.locs {
            let Action::Assign(lv, e) = &loc.action else { continue };
            if matches!(prog.lval_type(lv), CType::Int(..)) && holds_address(prog, &held, e) {
                for a in prog.memory.targets(prog, lv) {
                    changed |= held.insert(a);
                }
            }
        }
        if !changed {
            break;
        }
    }
    let mut found = None;
    for loc in &prog.locs {
        crate::ir::visit::action_exprs(&loc.action, &mut |e| {
            let arithmetic = match e {
                Expr::Binary(op, a, b, _) => !op.is_comparison() && (holds_address(prog, &held, a) || holds_address(prog, &held, b)),
                Expr::Unary(UnOp::Neg | UnOp::BitNot, x, _) => holds_address(prog, &held, x),
                _ => false,
            };
            if arithmetic && found.is_none() {
                found = Some(loc.span);
            }
        });
    }
    if let Some(span) = found {
        prog.unsupported.push(Unsupported { span, construct: "arithmetic on an address converted to an integer (the memory model gives every scalar one address, where C counts bytes)".into() });
    }
}

/// Whether an integer expression may hold an address converted to an integer; `held` are the
/// locations that may store one.
fn holds_address(prog: &Program, held: &HashSet<memory::AbsLoc>, e: &Expr) -> bool {
    match e {
        Expr::Cast(t, x) if *t != Ty::Ptr => {
            if x.ty(prog) == Ty::Ptr {
                prog.memory.may_hold_address(prog, x)
            } else {
                holds_address(prog, held, x)
            }
        }
        Expr::Load(lv) => matches!(prog.lval_type(lv), CType::Int(..)) && prog.memory.targets(prog, lv).iter().any(|a| held.contains(a)),
        Expr::Binary(op, a, b, t) => !op.is_comparison() && *t != Ty::Ptr && (holds_address(prog, held, a) || holds_address(prog, held, b)),
        Expr::Unary(UnOp::Neg | UnOp::BitNot, x, _) => holds_address(prog, held, x),
        _ => false,
    }
}

/// The allocation sites whose objects the program accesses at a byte type, and those it
/// accesses at a wider scalar type; `None` stands for memory no known object accounts for
/// (one site: any two unknown pointers may meet). A site in both may hold a value written at
/// one width and read at the other, which its per-type cells cannot relate.
struct HeapWidths {
    bytes: HashSet<Option<AllocId>>,
    wide: HashSet<Option<AllocId>>,
}

/// The site of a heap or unknown-memory location (see [`HeapWidths`]).
fn site_of(kind: &memory::AbsKind) -> Option<AllocId> {
    match kind {
        memory::AbsKind::Heap(site, _) => Some(*site),
        _ => None,
    }
}

impl HeapWidths {
    fn of(memory: &MemoryModel) -> HeapWidths {
        let mut out = HeapWidths { bytes: HashSet::new(), wide: HashSet::new() };
        for info in &memory.locs {
            let (memory::AbsKind::Heap(_, key) | memory::AbsKind::Region(key)) = &info.kind else { continue };
            let site = site_of(&info.kind);
            match key.as_str() {
                "int8" | "_Bool" => out.bytes.insert(site),
                "ptr" | "float" | "int16" | "int32" | "int64" | "int128" => out.wide.insert(site),
                _ => false,
            };
        }
        out
    }
}

/// How a diagnostic names an allocation site's objects.
fn heap_name(prog: &Program, site: Option<AllocId>) -> String {
    let Some(site) = site else { return "memory no known object accounts for (from an integer, a library call or a nondeterministic pointer)".into() };
    let at = prog.locs.iter().find(|l| matches!(l.action, Action::Alloc(_, s, _) if s == site));
    match at {
        Some(l) => format!("the memory allocated at {}", prog.span_str(l.span)),
        None => format!("heap#{}", site.0),
    }
}

/// Whether an lvalue selects a member of a record on its way: a typed access to that member
/// (`p->name[0]`, `p->count`), which meets only the member's own scalars; without one it is a
/// view of whatever the pointer reaches, which C allows at a character type.
fn through_member(lv: &Lval) -> bool {
    match lv {
        Lval::Field(..) => true,
        Lval::Index(b, _) => through_member(b),
        Lval::Var(_) | Lval::Deref(..) => false,
    }
}

/// A character pointer moved by a byte count (`p += 4`, `p++`, `(char *)&s + 4`) lands, in
/// C, on the byte that far on; the memory model gives every scalar one slot and moves it
/// that many scalars. The two agree only inside objects of bytes, so a move of a pointer that
/// may point into an object with wider scalars is an unsupported construct (moves by
/// `offsetof`, which counts slots too, are not recorded).
fn reject_byte_moves(prog: &mut Program) {
    let found = prog.byte_moves.iter().find_map(|(e, at)| prog.memory.wide_object_under(prog, e).map(|name| (*at, name)));
    if let Some((span, name)) = found {
        prog.unsupported.push(Unsupported { span, construct: format!("a character pointer moved by bytes inside `{name}`, an object of wider scalars (the memory model counts one slot per scalar)") });
    }
}

/// The IR lays every member of a union over the same slots from its start, one value per
/// scalar, and a member read reinterprets the slot's value in its own type. That is C's meaning
/// only when the members have the same scalars in the same order (widths and kinds; signedness
/// may differ): `unsigned` over `unsigned short[2]` would read `h[1]` from a slot the write never
/// touched, `int` over `float` would convert a value C reinterprets. A member access to a union
/// whose members differ so is reported as an unsupported construct.
fn reject_mismatched_unions(prog: &mut Program) {
    let mut exact: Vec<Option<bool>> = vec![None; prog.records.len()];
    let mut found = None;
    for loc in &prog.locs {
        crate::ir::visit::action_lvals(&loc.action, &mut |lv| {
            let mut cur = lv;
            while let Lval::Field(b, _, _) | Lval::Index(b, _) = cur {
                if let Lval::Field(_, r, _) = cur {
                    let ok = *exact[r.0 as usize].get_or_insert_with(|| union_members_agree(&prog.records, *r));
                    if !ok && found.is_none() {
                        found = Some((loc.span, prog.records[r.0 as usize].name.clone()));
                    }
                }
                cur = b;
            }
        });
        if found.is_some() {
            break;
        }
    }
    if let Some((span, name)) = found {
        prog.unsupported.push(Unsupported { span, construct: format!("a member access to union `{name}`, whose members lay out their bytes differently") });
    }
}

/// Whether every member of record `r` (trivially, of a struct) flattens to the same scalars.
fn union_members_agree(records: &[Record], r: RecordId) -> bool {
    let rec = &records[r.0 as usize];
    if !rec.is_union || rec.fields.len() < 2 {
        return true;
    }
    let mut first: Option<Vec<(u8, u8)>> = None;
    for (_, t) in &rec.fields {
        let mut slots = Vec::new();
        if !flatten_scalars(records, t, &mut slots, 0) {
            return false;
        }
        match &first {
            None => first = Some(slots),
            Some(f) if *f == slots => {}
            Some(_) => return false,
        }
    }
    true
}

/// Appends the scalars of `t` in memory order as (kind, width); false when `t` holds something
/// the comparison cannot vouch for (a floating value, whose width the IR does not keep, an
/// opaque object, an array of unknown or large length, a union whose members differ).
fn flatten_scalars(records: &[Record], t: &CType, out: &mut Vec<(u8, u8)>, depth: u32) -> bool {
    if depth > 32 || out.len() > 4096 {
        return false;
    }
    match t {
        CType::Bool => out.push((0, 8)),
        CType::Int(i, _) => out.push((1, i.bits)),
        CType::Pointer(_) => out.push((2, 0)),
        CType::Array(e, Some(n)) if *n <= 4096 => {
            for _ in 0..*n {
                if !flatten_scalars(records, e, out, depth + 1) {
                    return false;
                }
            }
        }
        CType::Record(r) => {
            let rec = &records[r.0 as usize];
            if rec.is_union {
                return union_members_agree(records, *r) && rec.fields.first().is_none_or(|(_, f)| flatten_scalars(records, f, out, depth + 1));
            }
            for (_, f) in &rec.fields {
                if !flatten_scalars(records, f, out, depth + 1) {
                    return false;
                }
            }
        }
        _ => return false,
    }
    true
}

/// Removes the `skip` placeholders that lowering leaves at joins, labels and loop exits when
/// they have a single successor: fewer locations for every engine, same behaviours.
fn bypass_skips(prog: &mut Program) {
    let entries: HashSet<LocId> = prog.templates.iter().map(|t| t.entry).collect();
    let n = prog.locs.len();
    // Where each location forwards to, following chains of bypassable skips.
    let forward = |prog: &Program, mut l: LocId| -> LocId {
        let mut steps = 0;
        while steps < n {
            let loc = prog.loc(l);
            if !matches!(loc.action, Action::Skip) || loc.succs.len() != 1 || entries.contains(&l) || loc.succs[0] == l {
                return l;
            }
            l = loc.succs[0];
            steps += 1;
        }
        l
    };
    let targets: Vec<Vec<LocId>> = prog
        .locs
        .iter()
        .map(|loc| {
            let mut out: Vec<LocId> = Vec::new();
            for s in &loc.succs {
                let f = forward(prog, *s);
                if !out.contains(&f) {
                    out.push(f);
                }
            }
            out
        })
        .collect();
    for (loc, succs) in prog.locs.iter_mut().zip(targets) {
        loc.succs = succs;
    }
    prune_unreachable(prog);
}

/// Numbers each template's locations in reverse postorder from its entry, the order in which
/// a reader follows the code.
fn order_reverse_postorder(prog: &mut Program) {
    let mut order = Vec::with_capacity(prog.locs.len());
    for t in &mut prog.templates {
        let mut seen = HashSet::new();
        let mut post = Vec::new();
        let mut stack = vec![(t.entry, 0usize)];
        seen.insert(t.entry);
        while let Some((l, i)) = stack.pop() {
            let succs = &prog.locs[l.index()].succs;
            if i < succs.len() {
                stack.push((l, i + 1));
                let s = succs[succs.len() - 1 - i];
                if seen.insert(s) {
                    stack.push((s, 0));
                }
            } else {
                post.push(l);
            }
        }
        post.reverse();
        t.locs = post.clone();
        order.extend(post);
    }
    renumber(prog, &order);
}

/// Removes locations no thread can reach and templates no reachable fork creates, and
/// numbers the rest template by template.
fn prune_unreachable(prog: &mut Program) {
    let mut live_tpl = vec![false; prog.templates.len()];
    let mut reach = vec![false; prog.locs.len()];
    let mut work = vec![TemplateId(0)];
    live_tpl[0] = true;
    while let Some(t) = work.pop() {
        let mut stack = vec![prog.templates[t.index()].entry];
        while let Some(l) = stack.pop() {
            if std::mem::replace(&mut reach[l.index()], true) {
                continue;
            }
            let loc = &prog.locs[l.index()];
            if let Action::Fork { template, .. } = &loc.action {
                if !std::mem::replace(&mut live_tpl[template.index()], true) {
                    work.push(*template);
                }
            }
            stack.extend(loc.succs.iter().copied());
        }
    }
    // New template numbering.
    let tmap: Vec<Option<TemplateId>> = {
        let mut next = 0u32;
        live_tpl
            .iter()
            .map(|&l| {
                l.then(|| {
                    next += 1;
                    TemplateId(next - 1)
                })
            })
            .collect()
    };
    let order: Vec<LocId> = prog.templates.iter().enumerate().filter(|(i, _)| live_tpl[*i]).flat_map(|(_, t)| t.locs.iter().copied().filter(|l| reach[l.index()]).collect::<Vec<_>>()).collect();
    let mut templates = Vec::new();
    for (i, t) in std::mem::take(&mut prog.templates).into_iter().enumerate() {
        if live_tpl[i] {
            templates.push(t);
        }
    }
    prog.templates = templates;
    for loc in &mut prog.locs {
        loc.template = tmap[loc.template.index()].unwrap_or(TemplateId(0));
        if let Action::Fork { template, .. } = &mut loc.action {
            *template = tmap[template.index()].unwrap_or(*template);
        }
    }
    for v in &mut prog.vars {
        match &mut v.kind {
            VarKind::Local(t) | VarKind::Temp(t) => *t = tmap[t.index()].unwrap_or(TemplateId(0)),
            _ => {}
        }
    }
    renumber(prog, &order);
}

/// Renumbers locations to `order` (which lists every location to keep), dropping the rest.
fn renumber(prog: &mut Program, order: &[LocId]) {
    let mut map = vec![None; prog.locs.len()];
    for (i, l) in order.iter().enumerate() {
        map[l.index()] = Some(LocId(i as u32));
    }
    let m = |l: &LocId| map[l.index()];
    let mut locs = Vec::with_capacity(order.len());
    for l in order {
        let mut loc = prog.locs[l.index()].clone();
        loc.succs = loc.succs.iter().filter_map(m).collect();
        locs.push(loc);
    }
    prog.locs = locs;
    for t in &mut prog.templates {
        t.entry = m(&t.entry).expect("template entries are reachable");
        t.locs = t.locs.iter().filter_map(m).collect();
        t.spawned_at = t.spawned_at.iter().filter_map(m).collect();
    }
    for a in &mut prog.assertions {
        a.locs = a.locs.iter().filter_map(m).collect();
    }
}

/// Marks the locations where a thread stands inside an atomic section on every path (a
/// must-analysis: a location is atomic only if every path to it has begun a section).
fn mark_atomic(prog: &mut Program) {
    const TOP: u32 = u32::MAX;
    let mut depth_in = vec![TOP; prog.locs.len()];
    for t in &prog.templates {
        depth_in[t.entry.index()] = 0;
        let mut work = vec![t.entry];
        while let Some(l) = work.pop() {
            let d = depth_in[l.index()];
            let out = match prog.locs[l.index()].action {
                Action::AtomicBegin => (d + 1).min(64),
                Action::AtomicEnd => d.saturating_sub(1),
                _ => d,
            };
            for s in &prog.locs[l.index()].succs {
                if out < depth_in[s.index()] {
                    depth_in[s.index()] = out;
                    work.push(*s);
                }
            }
        }
    }
    for (i, loc) in prog.locs.iter_mut().enumerate() {
        loc.atomic = depth_in[i] != TOP && depth_in[i] >= 1;
    }
}

/// Splits actions that touch several shared abstract locations, so that executing each
/// action atomically is faithful to C (every shared read or write is its own step). Loads are
/// moved into temporaries placed before the action; inside atomic sections nothing can
/// interleave, so those actions stay whole.
fn split_shared_accesses(prog: &mut Program) {
    let mem = MemoryModel::build(prog);
    let preds = prog.predecessors();
    let n = prog.locs.len();
    let mut inserted_before: Vec<Vec<LocId>> = vec![Vec::new(); n];
    for i in 0..n {
        let l = LocId(i as u32);
        if prog.locs[i].atomic {
            continue;
        }
        let action = prog.locs[i].action.clone();
        let shared = |lv: &Lval| mem.is_shared(prog, lv);
        let mut loads: Vec<Lval> = Vec::new();
        let mut writes_shared = false;
        match &action {
            Action::Assign(lv, e) => {
                lv.for_each_load_inside(&mut |x| loads.push(x.clone()));
                e.for_each_load(&mut |x| loads.push(x.clone()));
                writes_shared = shared(lv);
            }
            Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => e.for_each_load(&mut |x| loads.push(x.clone())),
            Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) => {
                lv.for_each_load_inside(&mut |x| loads.push(x.clone()));
                writes_shared = true;
            }
            Action::Alloc(lv, ..) => {
                lv.for_each_load_inside(&mut |x| loads.push(x.clone()));
                writes_shared = shared(lv);
            }
            Action::Fork { handle, arg, .. } => {
                if let Some(h) = handle {
                    h.for_each_load_inside(&mut |x| loads.push(x.clone()));
                    writes_shared = shared(h);
                }
                if let Some(e) = arg {
                    e.for_each_load(&mut |x| loads.push(x.clone()));
                }
            }
            _ => {}
        }
        let shared_loads: Vec<Lval> = loads.into_iter().filter(|x| shared(x)).collect();
        let accesses = shared_loads.len() + writes_shared as usize;
        if accesses <= 1 {
            continue;
        }
        // Keep one shared read in the action when it writes nothing shared.
        let mut keep = if writes_shared { None } else { shared_loads.last().cloned() };
        let template = prog.locs[i].template;
        let span = prog.locs[i].span;
        let mut hoisted: Vec<(VarId, Lval)> = Vec::new();
        let mut new_action = action.clone();
        let is_shared = |p: &Program, lv: &Lval| mem.is_shared(p, lv);
        let mut rewrite = |e: &mut Expr, prog: &mut Program| hoist_expr(e, &is_shared, &mut keep, prog, template, &mut hoisted);
        match &mut new_action {
            Action::Assign(lv, e) => {
                hoist_lval_inside(lv, &mut rewrite, prog);
                rewrite(e, prog);
            }
            Action::Assume(e) | Action::Assert(_, e) | Action::Join(e) => rewrite(e, prog),
            Action::Acquire(lv) | Action::Release(lv) | Action::LockBusy(lv) | Action::Alloc(lv, ..) => hoist_lval_inside(lv, &mut rewrite, prog),
            Action::Fork { handle, arg, .. } => {
                if let Some(h) = handle {
                    hoist_lval_inside(h, &mut rewrite, prog);
                }
                if let Some(e) = arg {
                    rewrite(e, prog);
                }
            }
            _ => {}
        }
        if hoisted.is_empty() {
            continue;
        }
        prog.locs[i].action = new_action;
        // Chain the temporaries' loads before the action: predecessors now enter the chain.
        let mut chain = Vec::new();
        for (t, lv) in hoisted {
            let id = LocId(prog.locs.len() as u32);
            prog.locs.push(Location { template, span, action: Action::Assign(Lval::Var(t), Expr::Load(lv)), succs: Vec::new(), atomic: false });
            chain.push(id);
        }
        for w in chain.windows(2) {
            prog.locs[w[0].index()].succs.push(w[1]);
        }
        prog.locs[chain.last().unwrap().index()].succs.push(l);
        for p in &preds[i] {
            for s in &mut prog.locs[p.index()].succs {
                if *s == l {
                    *s = chain[0];
                }
            }
        }
        if prog.templates[template.index()].entry == l {
            prog.templates[template.index()].entry = chain[0];
        }
        inserted_before[i] = chain;
    }
    // Keep each template's locations in reading order: the loads come right before their action.
    let mut order = Vec::new();
    for t in &mut prog.templates {
        let mut locs = Vec::new();
        for l in &t.locs {
            if let Some(chain) = inserted_before.get(l.index()) {
                locs.extend(chain.iter().copied());
            }
            locs.push(*l);
        }
        t.locs = locs.clone();
        order.extend(locs);
    }
    renumber(prog, &order);
}

type Rewriter<'r> = dyn FnMut(&mut Expr, &mut Program) + 'r;

fn hoist_lval_inside(lv: &mut Lval, rewrite: &mut Rewriter<'_>, prog: &mut Program) {
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => rewrite(e, prog),
        Lval::Index(b, i) => {
            hoist_lval_inside(b, rewrite, prog);
            rewrite(i, prog);
        }
        Lval::Field(b, _, _) => hoist_lval_inside(b, rewrite, prog),
    }
}

/// Shared-ness of an lvalue under the program's alias model.
type SharedFn<'s> = dyn Fn(&Program, &Lval) -> bool + 's;

/// Replaces shared loads by temporaries, innermost first; one occurrence of `keep` stays.
fn hoist_expr(e: &mut Expr, shared: &SharedFn<'_>, keep: &mut Option<Lval>, prog: &mut Program, template: TemplateId, hoisted: &mut Vec<(VarId, Lval)>) {
    match e {
        Expr::Const(..) | Expr::Nondet(_) | Expr::Havoc(..) => {}
        Expr::AddrOf(lv) => hoist_in_lval(lv, shared, keep, prog, template, hoisted),
        Expr::Unary(_, x, _) | Expr::Cast(_, x) => hoist_expr(x, shared, keep, prog, template, hoisted),
        Expr::Binary(_, a, b, _) => {
            hoist_expr(a, shared, keep, prog, template, hoisted);
            hoist_expr(b, shared, keep, prog, template, hoisted);
        }
        Expr::Load(lv) => {
            let original = lv.clone();
            hoist_in_lval(lv, shared, keep, prog, template, hoisted);
            if keep.as_ref() == Some(&original) {
                *keep = None;
            } else if shared(prog, &original) {
                let ty = prog.lval_type(lv);
                let n = prog.vars.len();
                prog.vars.push(Variable { name: format!("$r{n}"), source_name: format!("$r{n}"), ty, kind: VarKind::Temp(template), addr_taken: false, span: None });
                let t = VarId(n as u32);
                hoisted.push((t, lv.clone()));
                *e = Expr::Load(Lval::Var(t));
            }
        }
    }
}

fn hoist_in_lval(lv: &mut Lval, shared: &SharedFn<'_>, keep: &mut Option<Lval>, prog: &mut Program, template: TemplateId, hoisted: &mut Vec<(VarId, Lval)>) {
    match lv {
        Lval::Var(_) => {}
        Lval::Deref(e, _) => hoist_expr(e, shared, keep, prog, template, hoisted),
        Lval::Index(b, i) => {
            hoist_in_lval(b, shared, keep, prog, template, hoisted);
            hoist_expr(i, shared, keep, prog, template, hoisted);
        }
        Lval::Field(b, _, _) => hoist_in_lval(b, shared, keep, prog, template, hoisted),
    }
}

/// Decides which templates have unboundedly many instances: parameterized mode; a fork on a
/// control-flow cycle (a loop, or a function inlined into one); several fork sites; or a
/// creator that is itself unbounded.
fn compute_multiplicity(prog: &mut Program) {
    let on_cycle = |prog: &Program, at: LocId| -> bool {
        let mut seen = HashSet::new();
        let mut stack: Vec<LocId> = prog.loc(at).succs.clone();
        while let Some(l) = stack.pop() {
            if l == at {
                return true;
            }
            if seen.insert(l) {
                stack.extend(prog.loc(l).succs.iter().copied());
            }
        }
        false
    };
    let n = prog.templates.len();
    for i in 1..n {
        let t = &prog.templates[i];
        let unbounded = prog.mode.parameterized || t.multiplicity == Multiplicity::Unbounded || t.spawned_at.len() > 1 || t.spawned_at.iter().any(|&s| on_cycle(prog, s));
        if unbounded {
            prog.templates[i].multiplicity = Multiplicity::Unbounded;
        }
    }
    loop {
        let mut changed = false;
        for i in 1..n {
            if prog.templates[i].multiplicity == Multiplicity::Unbounded {
                continue;
            }
            let creator_unbounded = prog.templates[i].spawned_at.iter().any(|s| prog.templates[prog.loc(*s).template.index()].multiplicity == Multiplicity::Unbounded);
            if creator_unbounded {
                prog.templates[i].multiplicity = Multiplicity::Unbounded;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
}
