//! Resolving C declarations into [`CType`]s: typedefs, struct/union tags, enum constants,
//! sizes under a data model, and constant expressions.

use crate::ir::types::{CType, IntTy, Record, RecordId};
use crate::ir::DataModel;
use hashbrown::HashMap;
use lang_c::ast::*;
use lang_c::span::Node;

/// A declared name with its resolved type.
#[derive(Clone, Debug)]
pub struct Declared {
    /// The identifier, absent for abstract declarators.
    pub name: Option<String>,
    /// Its type.
    pub ty: CType,
    /// For function declarators: the parameters (name, type); `None` otherwise.
    pub params: Option<Vec<(Option<String>, CType)>>,
    /// Return type, for function declarators.
    pub ret: Option<CType>,
}

/// The type environment of one translation unit.
pub struct TypeEnv {
    /// Data model for sizes.
    pub dm: DataModel,
    typedefs: HashMap<String, CType>,
    /// Struct and union definitions, indexed by [`RecordId`].
    pub records: Vec<Record>,
    tags: HashMap<String, RecordId>,
    enum_consts: HashMap<String, i128>,
    /// Types of the `typeof(expression)` operands, by the operand's span: the lowerer types
    /// them in their scope just before the declaration or type name that contains them.
    pub typeofs: HashMap<(usize, usize), CType>,
    /// Signatures of function-pointer typedefs, which [`CType`] does not keep.
    pub typedef_sigs: HashMap<String, Signature>,
    /// Signatures of function-pointer fields, by record and field position.
    pub field_sigs: HashMap<(RecordId, usize), Signature>,
    /// Widths of bit-fields narrower than their type, by record and field position.
    pub bit_widths: HashMap<(RecordId, usize), u8>,
    /// Typedef names of `_Atomic` types (`atomic_int`).
    pub atomic_typedefs: hashbrown::HashSet<String>,
    /// An `_Atomic` object other than a whole declared variable or an element of one (a
    /// member, a parameter, a pointee, a type name): the lowerer cannot tell which lvalues
    /// designate it.
    pub atomic_elsewhere: bool,
}

/// The parameter types and return type of a function pointer's declared type.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    /// Parameter types; empty also for `()`, which leaves them unspecified.
    pub params: Vec<CType>,
    /// Return type.
    pub ret: CType,
}

impl Signature {
    /// The signature a declarator of a function pointer (or an array of them) spells out, or
    /// that its typedef name carries.
    pub fn of(decl: &Declared, typedef: Option<&Signature>) -> Option<Signature> {
        let mut t = &decl.ty;
        while let CType::Array(e, _) = t {
            t = e;
        }
        if !matches!(t, CType::Pointer(p) if matches!(**p, CType::Function)) {
            return None;
        }
        match (&decl.params, &decl.ret) {
            (Some(ps), Some(r)) => Some(Signature { params: ps.iter().map(|(_, t)| t.clone()).collect(), ret: r.clone() }),
            _ => typedef.cloned(),
        }
    }
}

/// The typedef name among declaration specifiers, if the base type is one.
pub fn typedef_name<'s>(mut specs: impl Iterator<Item = &'s TypeSpecifier>) -> Option<&'s str> {
    specs.find_map(|t| match t {
        TypeSpecifier::TypedefName(id) => Some(id.node.name.as_str()),
        _ => None,
    })
}

/// Result of resolving specifiers: the type and the storage class seen.
pub struct Specs {
    /// The base type.
    pub ty: CType,
    /// `typedef` storage class.
    pub is_typedef: bool,
    /// `extern` storage class.
    pub is_extern: bool,
    /// `static` storage class.
    pub is_static: bool,
    /// `_Thread_local`.
    pub is_thread_local: bool,
    /// `_Atomic`, as a qualifier, a specifier or through a typedef name.
    pub is_atomic: bool,
}

/// A type that is not supported, with the construct's name.
pub type TypeError = String;

fn int(bits: u8, signed: bool, name: &str) -> CType {
    CType::Int(IntTy { bits, signed }, name.to_string())
}

/// The typedef name of the barrier state record.
const BARRIER: &str = "pthread_barrier_t";

impl TypeEnv {
    /// An empty environment.
    pub fn new(dm: DataModel) -> TypeEnv {
        let mut env = TypeEnv {
            dm,
            typedefs: HashMap::new(),
            records: Vec::new(),
            tags: HashMap::new(),
            enum_consts: HashMap::new(),
            typeofs: HashMap::new(),
            typedef_sigs: HashMap::new(),
            field_sigs: HashMap::new(),
            bit_widths: HashMap::new(),
            atomic_typedefs: hashbrown::HashSet::new(),
            atomic_elsewhere: false,
        };
        // GCC's built-in typedef that lang-c also knows in its GNU flavour.
        env.typedefs.insert("__builtin_va_list".into(), CType::Opaque("va_list".into()));
        env
    }

    /// The value of an enumeration constant.
    pub fn enum_const(&self, name: &str) -> Option<i128> {
        self.enum_consts.get(name).copied()
    }

    /// The type a typedef name stands for.
    pub fn typedef(&self, name: &str) -> Option<&CType> {
        self.typedefs.get(name)
    }

    /// Records a typedef. Library types that the IR models specially are recognised by name.
    pub fn add_typedef(&mut self, name: &str, ty: CType) {
        let ty = match name {
            "pthread_mutex_t" | "pthread_spinlock_t" => CType::Mutex,
            // Not reserved by the C library: a program's own lock structure is kept.
            "spinlock_t" if !matches!(ty, CType::Record(_)) => CType::Mutex,
            // A semaphore's count, and a read-write lock's state (-1 held for writing, n > 0
            // held by n readers): the front-end models them on these numbers.
            "sem_t" | "pthread_rwlock_t" | "pthread_once_t" => CType::Int(IntTy { bits: 32, signed: true }, name.to_string()),
            "pthread_cond_t" | "pthread_attr_t" | "pthread_mutexattr_t" | "pthread_condattr_t" | "pthread_barrierattr_t" => CType::Opaque(name.to_string()),
            // A key indexes each thread's table of values, as in glibc.
            "pthread_key_t" => CType::Int(IntTy { bits: 32, signed: false }, name.to_string()),
            "pthread_barrier_t" => self.barrier_record(),
            _ => ty,
        };
        self.typedefs.insert(name.to_string(), ty);
    }

    /// The state a barrier is modelled on: how many threads it waits for, how many of the
    /// current round have arrived, and the round, which advances when the last one arrives.
    fn barrier_record(&mut self) -> CType {
        if let Some(CType::Record(r)) = self.typedefs.get(BARRIER) {
            return CType::Record(*r);
        }
        let id = self.new_record(None, false);
        let u = CType::Int(IntTy { bits: 32, signed: false }, "unsigned int".into());
        let rec = &mut self.records[id.0 as usize];
        rec.name = BARRIER.into();
        rec.fields = vec![("count".into(), u.clone()), ("arrived".into(), u.clone()), ("round".into(), u)];
        CType::Record(id)
    }

    /// Whether a record is the one [`TypeEnv::add_typedef`] gives `pthread_barrier_t`.
    pub fn is_barrier(&self, r: RecordId) -> bool {
        matches!(self.typedefs.get(BARRIER), Some(CType::Record(b)) if *b == r)
    }

    /// Resolves declaration specifiers.
    pub fn specs(&mut self, specs: &[Node<DeclarationSpecifier>]) -> Result<Specs, TypeError> {
        let mut out = Specs { ty: CType::Void, is_typedef: false, is_extern: false, is_static: false, is_thread_local: false, is_atomic: false };
        let mut ts = Vec::new();
        for s in specs {
            match &s.node {
                DeclarationSpecifier::StorageClass(sc) => match sc.node {
                    StorageClassSpecifier::Typedef => out.is_typedef = true,
                    StorageClassSpecifier::Extern => out.is_extern = true,
                    StorageClassSpecifier::Static => out.is_static = true,
                    StorageClassSpecifier::ThreadLocal => out.is_thread_local = true,
                    _ => {}
                },
                DeclarationSpecifier::TypeSpecifier(t) => {
                    out.is_atomic |= self.is_atomic_specifier(&t.node);
                    ts.push(&t.node)
                }
                DeclarationSpecifier::TypeQualifier(q) => out.is_atomic |= matches!(q.node, TypeQualifier::Atomic),
                _ => {}
            }
        }
        out.ty = self.base(&ts)?;
        Ok(out)
    }

    fn is_atomic_specifier(&self, t: &TypeSpecifier) -> bool {
        match t {
            TypeSpecifier::Atomic(_) => true,
            TypeSpecifier::TypedefName(id) => self.atomic_typedefs.contains(&id.node.name),
            _ => false,
        }
    }

    /// Resolves the specifiers of a type name or struct field.
    pub fn spec_quals(&mut self, specs: &[Node<SpecifierQualifier>]) -> Result<CType, TypeError> {
        // A member or a type name (`sizeof`, casts, pointees) of `_Atomic` type.
        let atomic = specs.iter().any(|s| match &s.node {
            SpecifierQualifier::TypeSpecifier(t) => self.is_atomic_specifier(&t.node),
            SpecifierQualifier::TypeQualifier(q) => matches!(q.node, TypeQualifier::Atomic),
            _ => false,
        });
        self.atomic_elsewhere |= atomic;
        let ts: Vec<&TypeSpecifier> = specs
            .iter()
            .filter_map(|s| match &s.node {
                SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                _ => None,
            })
            .collect();
        self.base(&ts)
    }

    fn base(&mut self, ts: &[&TypeSpecifier]) -> Result<CType, TypeError> {
        let (mut longs, mut short, mut char_, mut int_, mut unsigned, mut signed) = (0, false, false, false, false, false);
        let mut other: Option<CType> = None;
        for t in ts {
            match t {
                TypeSpecifier::Void => other = Some(CType::Void),
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Int => int_ = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Float => other = Some(CType::Float(4)),
                TypeSpecifier::Double => other = Some(CType::Float(8)),
                TypeSpecifier::TS18661Float(f) => {
                    let bytes = match f.format {
                        TS18661FloatFormat::BinaryInterchange | TS18661FloatFormat::DecimalInterchange => f.width / 8,
                        // `_Float32x` is at least as wide as `_Float64`, and so on.
                        TS18661FloatFormat::BinaryExtended | TS18661FloatFormat::DecimalExtended => f.width / 4,
                    };
                    other = Some(CType::Float(bytes.clamp(4, 16) as u8))
                }
                TypeSpecifier::Signed => signed = true,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Bool => other = Some(CType::Bool),
                TypeSpecifier::Complex => return Err("complex numbers".into()),
                TypeSpecifier::Atomic(tn) => other = Some(self.type_name(&tn.node)?),
                TypeSpecifier::Struct(st) => other = Some(self.record(&st.node)?),
                TypeSpecifier::Enum(et) => other = Some(self.enumeration(&et.node)?),
                TypeSpecifier::TypedefName(id) => other = Some(self.typedefs.get(&id.node.name).cloned().ok_or_else(|| format!("unknown type name `{}`", id.node.name))?),
                TypeSpecifier::TypeOf(t) => match &t.node {
                    TypeOf::Type(tn) => other = Some(self.type_name(&tn.node)?),
                    TypeOf::Expression(e) => other = Some(self.typeofs.get(&(e.span.start, e.span.end)).cloned().ok_or("`typeof` of an expression outside a declaration or type name")?),
                },
            }
        }
        if let Some(o) = other {
            if let CType::Float(8) = o {
                // x87 extended precision, padded to 12 bytes (i386) or 16 (x86-64).
                if longs > 0 {
                    return Ok(CType::Float(if self.dm == DataModel::ILP32 { 12 } else { 16 }));
                }
            }
            if !matches!(o, CType::Float(_)) || (!char_ && !short && !int_) {
                return Ok(o);
            }
        }
        let long_bits = match self.dm {
            DataModel::LP64 => 64,
            DataModel::ILP32 => 32,
        };
        let signed_ = !unsigned;
        let name = |base: &str| {
            if unsigned {
                format!("unsigned {base}")
            } else if signed && base == "char" {
                "signed char".into()
            } else {
                base.to_string()
            }
        };
        Ok(if char_ {
            int(8, signed_, &name("char"))
        } else if short {
            int(16, signed_, &name("short"))
        } else if longs >= 2 {
            int(64, signed_, &name("long long"))
        } else if longs == 1 {
            int(long_bits, signed_, &name("long"))
        } else {
            int(32, signed_, &name("int"))
        })
    }

    /// Resolves a type name (as in casts and `sizeof`).
    pub fn type_name(&mut self, tn: &TypeName) -> Result<CType, TypeError> {
        let base = self.spec_quals(&tn.specifiers)?;
        match &tn.declarator {
            Some(d) => Ok(self.declarator(base, &d.node)?.ty),
            None => Ok(base),
        }
    }

    /// Applies a declarator to a base type.
    pub fn declarator(&mut self, base: CType, d: &Declarator) -> Result<Declared, TypeError> {
        let mut ty = base;
        let mut params = None;
        let mut ret = None;
        for der in array_suffixes_innermost_first(&d.derived) {
            match &der.node {
                DerivedDeclarator::Pointer(_) | DerivedDeclarator::Block(_) => ty = CType::Pointer(Box::new(ty)),
                DerivedDeclarator::Array(a) => {
                    let len = match &a.node.size {
                        ArraySize::VariableExpression(e) | ArraySize::StaticExpression(e) => self.const_eval(&e.node).map(|n| n.max(0) as u64),
                        _ => None,
                    };
                    ty = CType::Array(Box::new(ty), len);
                }
                DerivedDeclarator::Function(f) => {
                    let mut ps = Vec::new();
                    for p in &f.node.parameters {
                        let s = self.specs(&p.node.specifiers)?;
                        self.atomic_elsewhere |= s.is_atomic;
                        let pd = match &p.node.declarator {
                            Some(dd) => self.declarator(s.ty, &dd.node)?,
                            None => Declared { name: None, ty: s.ty, params: None, ret: None },
                        };
                        // `f(void)` declares no parameters.
                        if pd.name.is_none() && matches!(pd.ty, CType::Void) {
                            continue;
                        }
                        ps.push((pd.name, decay(pd.ty)));
                    }
                    params = Some(ps);
                    ret = Some(ty);
                    ty = CType::Function;
                }
                DerivedDeclarator::KRFunction(names) => {
                    params = Some(names.iter().map(|n| (Some(n.node.name.clone()), CType::int())).collect());
                    ret = Some(ty);
                    ty = CType::Function;
                }
            }
        }
        match &d.kind.node {
            DeclaratorKind::Abstract => Ok(Declared { name: None, ty, params, ret }),
            DeclaratorKind::Identifier(id) => Ok(Declared { name: Some(id.node.name.clone()), ty, params, ret }),
            DeclaratorKind::Declarator(inner) => {
                let mut r = self.declarator(ty, &inner.node)?;
                if r.params.is_none() {
                    r.params = params;
                    r.ret = ret;
                }
                Ok(r)
            }
        }
    }

    fn record(&mut self, st: &StructType) -> Result<CType, TypeError> {
        let is_union = matches!(st.kind.node, StructKind::Union);
        let tag = st.identifier.as_ref().map(|i| i.node.name.clone());
        let id = match &tag {
            Some(t) if st.declarations.is_none() => {
                if let Some(id) = self.tags.get(t) {
                    return Ok(CType::Record(*id));
                }
                self.new_record(Some(t.clone()), is_union)
            }
            Some(t) => match self.tags.get(t) {
                // A definition completes an earlier forward declaration.
                Some(id) if self.records[id.0 as usize].fields.is_empty() => *id,
                _ => self.new_record(Some(t.clone()), is_union),
            },
            None => self.new_record(None, is_union),
        };
        if let Some(decls) = &st.declarations {
            let mut fields = Vec::new();
            for d in decls {
                let StructDeclaration::Field(f) = &d.node else { continue };
                let base = self.spec_quals(&f.node.specifiers)?;
                if f.node.declarators.is_empty() {
                    // An anonymous struct or union member: its fields are reachable by name.
                    if let CType::Record(inner) = &base {
                        let inner_fields = self.records[inner.0 as usize].fields.clone();
                        if inner_fields.iter().all(|(n, _)| !n.is_empty()) {
                            fields.push((String::new(), base.clone()));
                            continue;
                        }
                    }
                }
                let tname = typedef_name(f.node.specifiers.iter().filter_map(|s| match &s.node {
                    SpecifierQualifier::TypeSpecifier(t) => Some(&t.node),
                    _ => None,
                }));
                for sd in &f.node.declarators {
                    let decl = match &sd.node.declarator {
                        Some(dd) => self.declarator(base.clone(), &dd.node)?,
                        None => Declared { name: None, ty: base.clone(), params: None, ret: None },
                    };
                    if let Some(sig) = Signature::of(&decl, tname.and_then(|n| self.typedef_sigs.get(n))) {
                        self.field_sigs.insert((id, fields.len()), sig);
                    }
                    if let (Some(w), CType::Int(it, _)) = (sd.node.bit_width.as_ref().and_then(|w| self.const_eval(&w.node)), &decl.ty) {
                        if w > 0 && w < it.bits as i128 {
                            self.bit_widths.insert((id, fields.len()), w as u8);
                        }
                    }
                    // C requires complete member types; a record inside itself by value would
                    // make its size, and every walk over its members, infinite.
                    if self.contains_by_value(&decl.ty, id) {
                        let what = if is_union { "union" } else { "struct" };
                        return Err(format!(
                            "member `{}` has the incomplete type `{what} {}` (a record cannot contain itself; use a pointer)",
                            decl.name.unwrap_or_default(),
                            self.records[id.0 as usize].name
                        ));
                    }
                    fields.push((decl.name.unwrap_or_default(), decl.ty));
                }
            }
            self.records[id.0 as usize].fields = fields;
        }
        Ok(CType::Record(id))
    }

    /// Whether a value of type `t` holds a `rec` record inside it (not behind a pointer).
    fn contains_by_value(&self, t: &CType, rec: RecordId) -> bool {
        match t {
            CType::Array(e, _) => self.contains_by_value(e, rec),
            CType::Record(r) => *r == rec || self.records[r.0 as usize].fields.iter().any(|(_, f)| self.contains_by_value(f, rec)),
            _ => false,
        }
    }

    fn new_record(&mut self, tag: Option<String>, is_union: bool) -> RecordId {
        let id = RecordId(self.records.len() as u32);
        let name = tag.clone().unwrap_or_else(|| format!("<anonymous#{}>", id.0));
        self.records.push(Record { name, is_union, fields: Vec::new() });
        if let Some(t) = tag {
            self.tags.insert(t, id);
        }
        id
    }

    fn enumeration(&mut self, et: &EnumType) -> Result<CType, TypeError> {
        let mut next = 0i128;
        for e in &et.enumerators {
            let v = match &e.node.expression {
                Some(x) => self.const_eval(&x.node).ok_or_else(|| "a non-constant enumerator value".to_string())?,
                None => next,
            };
            self.enum_consts.insert(e.node.identifier.node.name.clone(), v);
            next = v + 1;
        }
        let name = et.identifier.as_ref().map(|i| format!("enum {}", i.node.name)).unwrap_or_else(|| "enum".into());
        Ok(int(32, true, &name))
    }

    /// Size in bytes of a type under the data model (0 for incomplete types).
    pub fn size_of(&self, t: &CType) -> u64 {
        self.layout(t).0
    }

    /// Alignment in bytes of a type under the data model.
    pub fn align_of(&self, t: &CType) -> u64 {
        self.layout(t).1
    }

    fn layout(&self, t: &CType) -> (u64, u64) {
        let ptr = match self.dm {
            DataModel::LP64 => 8,
            DataModel::ILP32 => 4,
        };
        match t {
            CType::Void | CType::Function => (1, 1),
            CType::Bool => (1, 1),
            CType::Int(i, _) => {
                let s = (i.bits / 8) as u64;
                // i386 aligns 64-bit integers to 4 bytes inside structs.
                (s, if self.dm == DataModel::ILP32 { s.min(4) } else { s })
            }
            // i386 aligns `double` and `long double` to 4 bytes inside structs.
            CType::Float(n) => (*n as u64, if self.dm == DataModel::ILP32 { (*n as u64).min(4) } else { *n as u64 }),
            CType::Pointer(_) => (ptr, ptr),
            CType::Array(e, n) => {
                let (s, a) = self.layout(e);
                (s.saturating_mul(n.unwrap_or(0)), a)
            }
            CType::Mutex => (if ptr == 8 { 40 } else { 24 }, ptr),
            CType::Opaque(n) => match n.as_str() {
                "pthread_cond_t" => (48, 8),
                "pthread_attr_t" => (if ptr == 8 { 56 } else { 36 }, ptr),
                _ => (ptr, ptr),
            },
            CType::Record(r) => {
                let rec = &self.records[r.0 as usize];
                let (mut size, mut align) = (0u64, 1u64);
                for (_, ft) in &rec.fields {
                    let (fs, fa) = self.layout(ft);
                    let fa = fa.max(1);
                    align = align.max(fa);
                    if rec.is_union {
                        size = size.max(fs);
                    } else {
                        size = size.div_ceil(fa) * fa + fs;
                    }
                }
                (size.div_ceil(align) * align, align)
            }
        }
    }

    /// Evaluates an integer constant expression, if it is one.
    pub fn const_eval(&self, e: &Expression) -> Option<i128> {
        self.const_typed(e).map(|(v, _)| v)
    }

    /// The value and type of an integer constant expression as C computes them (C11 6.6,
    /// 6.3.1.8): literals have their types, operands take the usual arithmetic conversions,
    /// unsigned results wrap and casts convert. `None` for what is not such a constant, or
    /// overflows a signed type (undefined), or divides by zero.
    fn const_typed(&self, e: &Expression) -> Option<(i128, IntTy)> {
        const INT: IntTy = IntTy { bits: 32, signed: true };
        let fit = |v: i128, t: IntTy| (t.min() <= v && v <= t.max()).then_some((v, t));
        // An arithmetic result in type `t`: unsigned arithmetic wraps, signed overflow is
        // not a constant.
        let arith = |v: Option<i128>, t: IntTy| if t.signed { fit(v?, t) } else { Some((t.wrap(v?), t)) };
        match e {
            Expression::Constant(c) => match &c.node {
                Constant::Integer(i) => match parse_integer(i)? {
                    (v, CType::Int(t, _)) => Some((v, t)),
                    _ => None,
                },
                Constant::Character(s) => Some((parse_char(s)?, INT)),
                Constant::Float(_) => None,
            },
            // GCC gives an enumerator that does not fit `int` the first type that holds it.
            Expression::Identifier(id) => {
                let v = self.enum_consts.get(&id.node.name).copied()?;
                [INT, IntTy { bits: 32, signed: false }, IntTy { bits: 64, signed: true }, IntTy { bits: 64, signed: false }].into_iter().find_map(|t| fit(v, t))
            }
            Expression::UnaryOperator(u) => {
                let (v, t) = self.const_typed(&u.node.operand.node)?;
                let t = promote(t);
                match u.node.operator.node {
                    UnaryOperator::Minus => arith(Some(-v), t),
                    UnaryOperator::Plus => Some((v, t)),
                    UnaryOperator::Complement => Some((t.wrap(!v), t)),
                    UnaryOperator::Negate => Some(((v == 0) as i128, INT)),
                    _ => None,
                }
            }
            Expression::Cast(c) => {
                let (v, _) = self.const_typed(&c.node.expression.node)?;
                match self.cast_target(&c.node.type_name.node)? {
                    None => Some(((v != 0) as i128, IntTy { bits: 8, signed: false })),
                    Some(t) => Some((t.wrap(v), t)),
                }
            }
            Expression::BinaryOperator(b) => {
                use BinaryOperator::*;
                let op = b.node.operator.node.clone();
                let (l, lt) = self.const_typed(&b.node.lhs.node)?;
                // `&&` and `||` do not evaluate (or need) an operand the left one decides.
                match (&op, l != 0) {
                    (LogicalAnd, false) => return Some((0, INT)),
                    (LogicalOr, true) => return Some((1, INT)),
                    _ => {}
                }
                let (r, rt) = self.const_typed(&b.node.rhs.node)?;
                if matches!(op, LogicalAnd | LogicalOr) {
                    return Some(((r != 0) as i128, INT));
                }
                if matches!(op, ShiftLeft | ShiftRight) {
                    let t = promote(lt);
                    if r < 0 || r >= t.bits as i128 {
                        return None;
                    }
                    // GCC defines the signed left shifts C11 leaves undefined: they wrap.
                    return Some((if op == ShiftLeft { t.wrap(l << r) } else { l >> r }, t));
                }
                // Both operands in their common type, where the comparison happens too.
                let t = common(lt, rt);
                let (l, r) = (t.wrap(l), t.wrap(r));
                let truth = |b: bool| Some((b as i128, INT));
                match op {
                    Plus => arith(l.checked_add(r), t),
                    Minus => arith(l.checked_sub(r), t),
                    Multiply => arith(l.checked_mul(r), t),
                    Divide => arith(l.checked_div(r), t),
                    Modulo => arith(l.checked_rem(r), t),
                    Less => truth(l < r),
                    Greater => truth(l > r),
                    LessOrEqual => truth(l <= r),
                    GreaterOrEqual => truth(l >= r),
                    Equals => truth(l == r),
                    NotEquals => truth(l != r),
                    BitwiseAnd => Some((t.wrap(l & r), t)),
                    BitwiseOr => Some((t.wrap(l | r), t)),
                    BitwiseXor => Some((t.wrap(l ^ r), t)),
                    _ => None,
                }
            }
            Expression::Conditional(c) => {
                let (k, _) = self.const_typed(&c.node.condition.node)?;
                // The result has the branches' common type whichever is chosen.
                let (a, at) = self.const_typed(&c.node.then_expression.node)?;
                let (b, bt) = self.const_typed(&c.node.else_expression.node)?;
                let t = common(at, bt);
                Some((t.wrap(if k != 0 { a } else { b }), t))
            }
            _ => None,
        }
    }

    /// The integer type a cast in a constant expression converts to: `Some(None)` for
    /// `_Bool`, `None` for what this does not resolve (records, floating point, `typeof`).
    fn cast_target(&self, tn: &TypeName) -> Option<Option<IntTy>> {
        let ptr = Some(Some(crate::ir::types::ptr_int(self.dm)));
        if tn.declarator.as_ref().is_some_and(|d| !d.node.derived.is_empty()) {
            return ptr;
        }
        let of = |t: &CType| match t {
            CType::Int(i, _) => Some(Some(*i)),
            CType::Bool => Some(None),
            CType::Pointer(_) => ptr,
            _ => None,
        };
        let (mut longs, mut short, mut char_, mut unsigned) = (0, false, false, false);
        for s in &tn.specifiers {
            let SpecifierQualifier::TypeSpecifier(t) = &s.node else { continue };
            match &t.node {
                TypeSpecifier::Char => char_ = true,
                TypeSpecifier::Short => short = true,
                TypeSpecifier::Long => longs += 1,
                TypeSpecifier::Unsigned => unsigned = true,
                TypeSpecifier::Int | TypeSpecifier::Signed => {}
                TypeSpecifier::Bool => return Some(None),
                TypeSpecifier::Enum(_) => return Some(Some(IntTy { bits: 32, signed: true })),
                TypeSpecifier::TypedefName(id) => return of(self.typedefs.get(&id.node.name)?),
                _ => return None,
            }
        }
        let long_bits = if self.dm == DataModel::ILP32 { 32 } else { 64 };
        let bits = if char_ {
            8
        } else if short {
            16
        } else if longs >= 2 {
            64
        } else if longs == 1 {
            long_bits
        } else {
            32
        };
        Some(Some(IntTy { bits, signed: !unsigned }))
    }
}

/// C's integer promotion of an integer type.
pub fn promote(t: IntTy) -> IntTy {
    if t.bits < 32 {
        IntTy { bits: 32, signed: true }
    } else {
        t
    }
}

/// C's usual arithmetic conversions on two integer types.
pub fn common(a: IntTy, b: IntTy) -> IntTy {
    let (a, b) = (promote(a), promote(b));
    if a.signed == b.signed {
        return if a.bits >= b.bits { a } else { b };
    }
    let (s, u) = if a.signed { (a, b) } else { (b, a) };
    if u.bits >= s.bits {
        u
    } else {
        s
    }
}

/// Array and function parameters decay to pointers.
pub fn decay(t: CType) -> CType {
    match t {
        CType::Array(e, _) => CType::Pointer(e),
        CType::Function => CType::Pointer(Box::new(CType::Function)),
        t => t,
    }
}

/// Parses an integer literal into its value and C type (C11 6.4.4.1).
pub fn parse_integer(i: &Integer) -> Option<(i128, CType)> {
    let radix = match i.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let v = u128::from_str_radix(&i.number, radix).ok()?;
    let v = i128::try_from(v).ok()?;
    let decimal = radix == 10;
    let u = i.suffix.unsigned;
    let min_bits = match i.suffix.size {
        IntegerSize::Int => 32,
        IntegerSize::Long | IntegerSize::LongLong => 64,
    };
    // The first type of the list that holds the value.
    let candidates: &[(u8, bool)] = &[(32, true), (32, false), (64, true), (64, false)];
    for &(bits, signed) in candidates {
        if bits < min_bits || (u && signed) || (decimal && !u && !signed) {
            continue;
        }
        let t = IntTy { bits, signed };
        if v <= t.max() {
            let name = match (bits, signed) {
                (32, true) => "int",
                (32, false) => "unsigned int",
                (64, true) => "long",
                _ => "unsigned long",
            };
            return Some((v, CType::Int(t, name.into())));
        }
    }
    Some((v, CType::Int(IntTy { bits: 64, signed: false }, "unsigned long".into())))
}

/// The value of a character constant such as `'a'` or `'\n'`.
pub fn parse_char(s: &str) -> Option<i128> {
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    let mut chars = inner.chars();
    let c = chars.next()?;
    if c != '\\' {
        return Some(c as i128);
    }
    let rest: String = chars.collect();
    Some(match rest.as_str() {
        "n" => 10,
        "t" => 9,
        "r" => 13,
        "0" => 0,
        "\\" => 92,
        "'" => 39,
        "\"" => 34,
        "a" => 7,
        "b" => 8,
        "f" => 12,
        "v" => 11,
        "?" => 63,
        // A numeric escape gives a `char`, signed on the x86 targets, which the constant's
        // `int` value then holds: '\xff' is -1.
        r if r.starts_with('x') => IntTy { bits: 8, signed: true }.wrap(i128::from_str_radix(&r[1..], 16).ok()?),
        r => IntTy { bits: 8, signed: true }.wrap(i128::from_str_radix(r, 8).ok()?),
    })
}

/// The derived declarators in the order they wrap the base type: `a[3][4]` is an array of 3
/// arrays of 4, so a run of array suffixes applies from the last to the first (the parser
/// lists them as written), while pointers and function suffixes keep their order.
fn array_suffixes_innermost_first(derived: &[Node<DerivedDeclarator>]) -> Vec<&Node<DerivedDeclarator>> {
    let mut out = Vec::with_capacity(derived.len());
    let mut run: Vec<&Node<DerivedDeclarator>> = Vec::new();
    for der in derived {
        if matches!(der.node, DerivedDeclarator::Array(_)) {
            run.push(der);
        } else {
            out.extend(run.drain(..).rev());
            out.push(der);
        }
    }
    out.extend(run.into_iter().rev());
    out
}
