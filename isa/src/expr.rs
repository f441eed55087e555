//! Constant expressions: launch shapes, buffer lengths and initialisers, immediates.
//!
//! They are evaluated when a program is instantiated for a warp size and parameter values (the variables are
//! `W`, the program's `.param`s, and in a buffer initialiser `i`, the element index, and `len`, the length).
//! Integers are 64-bit and stay integers (division truncates); an expression with a float literal is evaluated in
//! f64 and rounded once, to the element type, at the end.

use crate::source::Span;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    /// The value as a float; an integer past 2^53 rounds to the nearest f64, as a conversion in C does.
    #[allow(
        clippy::cast_precision_loss,
        reason = "rounding to the nearest f64 is the conversion's meaning"
    )]
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) => write!(f, "{}", format_float(*x)),
        }
    }
}

/// Prints a float so that it reads back as a float (`2.0`, not `2`).
#[allow(clippy::float_cmp, reason = "exactly whole: x == x.trunc() is the test")]
pub fn format_float(x: f64) -> String {
    if x.is_finite() && x == x.trunc() && x.abs() < 1e16 {
        format!("{x:.1}")
    } else {
        format!("{x:?}")
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    /// Comparisons give 1 (true) or 0 (false).
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
}

impl BinOp {
    fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::And => "&",
            BinOp::Or => "|",
            BinOp::Xor => "^",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
        }
    }

    /// Binding strength, higher binds tighter (C's order).
    pub fn precedence(self) -> u8 {
        match self {
            BinOp::Or => 1,
            BinOp::Xor => 2,
            BinOp::And => 3,
            BinOp::Eq | BinOp::Ne => 4,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => 5,
            BinOp::Shl | BinOp::Shr => 6,
            BinOp::Add | BinOp::Sub => 7,
            BinOp::Mul | BinOp::Div | BinOp::Rem => 8,
        }
    }
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Float(f64),
    Var(String),
    Neg(Box<ConstExpr>),
    Not(Box<ConstExpr>),
    Binary(BinOp, Box<ConstExpr>, Box<ConstExpr>),
    /// `min(a, b)`, `max(a, b)`.
    Call(String, Vec<ConstExpr>),
}

/// An expression with the span of its text. Equality ignores spans: two expressions are equal when they are
/// the same expression, wherever they were written.
#[derive(Clone, Debug)]
pub struct ConstExpr {
    pub kind: ExprKind,
    pub span: Span,
}

impl PartialEq for ExprKind {
    fn eq(&self, other: &Self) -> bool {
        use ExprKind::{Binary, Call, Float, Int, Neg, Not, Var};
        match (self, other) {
            (Int(a), Int(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (Var(a), Var(b)) => a == b,
            (Neg(a), Neg(b)) | (Not(a), Not(b)) => a == b,
            (Binary(o1, a1, b1), Binary(o2, a2, b2)) => o1 == o2 && a1 == a2 && b1 == b2,
            (Call(n1, a1), Call(n2, a2)) => n1 == n2 && a1 == a2,
            _ => false,
        }
    }
}

impl PartialEq for ConstExpr {
    fn eq(&self, other: &Self) -> bool {
        self.kind == other.kind
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalError {
    pub span: Span,
    pub message: String,
    pub help: Option<String>,
}

impl ConstExpr {
    pub fn int(value: i64, span: Span) -> ConstExpr {
        ConstExpr {
            kind: ExprKind::Int(value),
            span,
        }
    }

    /// The literal integer value, if the expression is one.
    pub fn as_literal_int(&self) -> Option<i64> {
        match self.kind {
            ExprKind::Int(i) => Some(i),
            ExprKind::Neg(ref e) => e.as_literal_int().map(|v| -v),
            _ => None,
        }
    }

    /// The expression with every variable that `lookup` resolves replaced by its value: evaluating the result
    /// with the remaining variables gives what evaluating `self` gives with all of them (integer or float mode
    /// alike), so an expression evaluated many times with one changing variable looks the others up once.
    #[must_use]
    pub fn bind(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> ConstExpr {
        let kind = match &self.kind {
            ExprKind::Int(_) | ExprKind::Float(_) => self.kind.clone(),
            ExprKind::Var(name) => match lookup(name) {
                Some(Value::Int(i)) => ExprKind::Int(i),
                Some(Value::Float(f)) => ExprKind::Float(f),
                None => self.kind.clone(),
            },
            ExprKind::Neg(e) => ExprKind::Neg(Box::new(e.bind(lookup))),
            ExprKind::Not(e) => ExprKind::Not(Box::new(e.bind(lookup))),
            ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, Box::new(a.bind(lookup)), Box::new(b.bind(lookup))),
            ExprKind::Call(name, args) => ExprKind::Call(name.clone(), args.iter().map(|a| a.bind(lookup)).collect()),
        };
        ConstExpr { kind, span: self.span }
    }

    /// Does the expression mention variable `name`?
    pub fn mentions(&self, name: &str) -> bool {
        match &self.kind {
            ExprKind::Var(v) => v == name,
            ExprKind::Int(_) | ExprKind::Float(_) => false,
            ExprKind::Neg(e) | ExprKind::Not(e) => e.mentions(name),
            ExprKind::Binary(_, a, b) => a.mentions(name) || b.mentions(name),
            ExprKind::Call(_, args) => args.iter().any(|a| a.mentions(name)),
        }
    }

    /// Evaluate with `lookup` resolving variables: integers stay integers until a float meets them.
    pub fn eval(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<Value, EvalError> {
        self.eval_mode(lookup, false)
    }

    /// Evaluate in floating point throughout (every integer is taken as a float), as for an `.f32` operand or an
    /// f32 buffer: `1 / 3` is 0.333…, not 0.
    pub fn eval_float(&self, lookup: &dyn Fn(&str) -> Option<Value>) -> Result<Value, EvalError> {
        self.eval_mode(lookup, true)
    }

    fn eval_mode(&self, lookup: &dyn Fn(&str) -> Option<Value>, float: bool) -> Result<Value, EvalError> {
        let err = |message: String| EvalError {
            span: self.span,
            message,
            help: None,
        };
        Ok(match &self.kind {
            ExprKind::Int(i) => lift(Value::Int(*i), float),
            ExprKind::Float(f) => Value::Float(*f),
            ExprKind::Var(name) => lookup(name).map(|v| lift(v, float)).ok_or_else(|| EvalError {
                span: self.span,
                message: format!("unknown name `{name}` in expression"),
                help: Some(
                    "expressions may use `W` (the warp size), the program's `.param`s, and in a buffer \
                     initialiser `i` (element index) and `len` (buffer length)"
                        .into(),
                ),
            })?,
            ExprKind::Neg(e) => neg(e.eval_mode(lookup, float)?).map_err(err)?,
            ExprKind::Not(e) => not(e.eval_mode(lookup, float)?).map_err(err)?,
            ExprKind::Call(name, args) => {
                let a = args[0].eval_mode(lookup, float)?;
                let b = args[1].eval_mode(lookup, float)?;
                min_max(name == "min", a, b)
            }
            ExprKind::Binary(op, a, b) => {
                let x = a.eval_mode(lookup, float)?;
                let y = b.eval_mode(lookup, float)?;
                binary(*op, x, y).map_err(err)?
            }
        })
    }

    /// The expression compiled for evaluating many times with `var` changing ([`Compiled`]), in integer or
    /// floating-point arithmetic (`float`, as [`ConstExpr::eval_float`]); `None` when it names any other variable
    /// (bind those first, [`ConstExpr::bind`]).
    #[must_use]
    pub fn compile(&self, var: &str, float: bool) -> Option<Compiled> {
        fn emit(e: &ConstExpr, var: &str, float: bool, ops: &mut Vec<Step>) -> Option<()> {
            match &e.kind {
                ExprKind::Int(i) => ops.push(Step::Push(lift(Value::Int(*i), float))),
                ExprKind::Float(f) => ops.push(Step::Push(Value::Float(*f))),
                ExprKind::Var(name) if name == var => ops.push(Step::Var),
                ExprKind::Var(_) => return None,
                ExprKind::Neg(a) => {
                    emit(a, var, float, ops)?;
                    ops.push(Step::Neg);
                }
                ExprKind::Not(a) => {
                    emit(a, var, float, ops)?;
                    ops.push(Step::Not);
                }
                ExprKind::Call(name, args) => {
                    emit(&args[0], var, float, ops)?;
                    emit(&args[1], var, float, ops)?;
                    ops.push(Step::MinMax(name == "min"));
                }
                ExprKind::Binary(op, a, b) => {
                    emit(a, var, float, ops)?;
                    emit(b, var, float, ops)?;
                    ops.push(Step::Binary(*op));
                }
            }
            Some(())
        }
        let mut ops = Vec::new();
        emit(self, var, float, &mut ops)?;
        let typed = Typed::of(&ops, float);
        Some(Compiled { ops, float, typed })
    }
}

/// A value in the arithmetic of the evaluation: integers become floats in floating-point mode.
#[inline]
fn lift(v: Value, float: bool) -> Value {
    if float { Value::Float(v.as_f64()) } else { v }
}

#[inline(always)]
fn neg(v: Value) -> Result<Value, String> {
    Ok(match v {
        Value::Int(i) => Value::Int(i.checked_neg().ok_or_else(|| "integer overflow".to_string())?),
        Value::Float(f) => Value::Float(-f),
    })
}

#[inline(always)]
fn not(v: Value) -> Result<Value, String> {
    match v {
        Value::Int(i) => Ok(Value::Int(!i)),
        Value::Float(_) => Err("`~` needs an integer".into()),
    }
}

#[inline(always)]
fn min_max(pick_min: bool, a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(if pick_min { x.min(y) } else { x.max(y) }),
        (x, y) => {
            let (x, y) = (x.as_f64(), y.as_f64());
            Value::Float(if pick_min { x.min(y) } else { x.max(y) })
        }
    }
}

#[inline(always)]
fn binary(op: BinOp, x: Value, y: Value) -> Result<Value, String> {
    Ok(match (x, y) {
        (Value::Int(x), Value::Int(y)) => Value::Int(int_op(op, x, y)?),
        (x, y) if op.precedence() == 4 || op.precedence() == 5 => {
            let (x, y) = (x.as_f64(), y.as_f64());
            #[allow(clippy::float_cmp, reason = "the expression language's `==` and `!=` are exact")]
            let t = match op {
                BinOp::Lt => x < y,
                BinOp::Le => x <= y,
                BinOp::Gt => x > y,
                BinOp::Ge => x >= y,
                BinOp::Eq => x == y,
                _ => x != y,
            };
            Value::Int(i64::from(t))
        }
        (x, y) => {
            let (x, y) = (x.as_f64(), y.as_f64());
            Value::Float(match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Rem => rem_f64(x, y),
                _ => return Err(format!("`{}` needs integers", op.symbol())),
            })
        }
    })
}

/// One step of a [`Compiled`] expression, in postfix order over a stack of values.
#[derive(Clone, Copy, Debug)]
enum Step {
    Push(Value),
    Var,
    Neg,
    Not,
    MinMax(bool),
    Binary(BinOp),
}

/// An expression in one variable compiled to postfix steps ([`ConstExpr::compile`]): a buffer initialiser
/// evaluated for millions of elements walks a short array with its names already resolved, and the same
/// operations as the tree's evaluation give the same values.
#[derive(Clone, Debug)]
pub struct Compiled {
    ops: Vec<Step>,
    float: bool,
    /// The one type every step's values have, where they have one ([`Compiled::eval_batch`] then works on
    /// plain columns of it).
    typed: Typed,
}

/// The type of every value of a compiled expression's evaluation, where it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Typed {
    /// Integers only: integer arithmetic, every constant an integer.
    Int,
    /// Floats only: floating-point arithmetic (`+ - * / %`, negation, `min`, `max`), no comparison or bit operation.
    Float,
    /// Anything else (a comparison's integer among floats, a float constant among integers).
    Mixed,
}

impl Typed {
    fn of(ops: &[Step], float: bool) -> Typed {
        if float {
            let closed = ops.iter().all(|s| match s {
                Step::Push(v) => matches!(v, Value::Float(_)),
                Step::Var | Step::Neg | Step::MinMax(_) => true,
                Step::Not => false,
                Step::Binary(op) => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
            });
            if closed { Typed::Float } else { Typed::Mixed }
        } else if ops.iter().all(|s| !matches!(s, Step::Push(Value::Float(_)))) {
            Typed::Int
        } else {
            Typed::Mixed
        }
    }
}

/// Scratch space for [`Compiled::eval_batch`]: one column per stack depth, of each kind; kept by a caller that
/// evaluates many batches.
#[derive(Debug, Default)]
pub struct Columns {
    values: Vec<Vec<Value>>,
    floats: Vec<Vec<f64>>,
    ints: Vec<Vec<i64>>,
}

impl Compiled {
    /// The value with the variable at `x`; `None` where the evaluation fails (the tree's evaluation,
    /// [`ConstExpr::eval`], gives the error with its span). `stack` is scratch space, kept by a caller that
    /// evaluates many times.
    pub fn eval(&self, x: Value, stack: &mut Vec<Value>) -> Option<Value> {
        stack.clear();
        for step in &self.ops {
            match *step {
                Step::Push(v) => stack.push(v),
                Step::Var => stack.push(lift(x, self.float)),
                Step::Neg => {
                    let a = stack.pop()?;
                    stack.push(neg(a).ok()?);
                }
                Step::Not => {
                    let a = stack.pop()?;
                    stack.push(not(a).ok()?);
                }
                Step::MinMax(pick_min) => {
                    let (b, a) = (stack.pop()?, stack.pop()?);
                    stack.push(min_max(pick_min, a, b));
                }
                Step::Binary(op) => {
                    let (b, a) = (stack.pop()?, stack.pop()?);
                    stack.push(binary(op, a, b).ok()?);
                }
            }
        }
        stack.pop()
    }

    /// [`Compiled::eval`] with the variable at `first`, `first + 1`, … for each of `out`'s elements, a step at a
    /// time over all of them (one loop per step, not a walk of the steps per element); `false` where any
    /// element's evaluation fails, and then `eval` element by element says which. `columns` is scratch space,
    /// kept by a caller that evaluates many batches.
    pub fn eval_batch(&self, first: i64, out: &mut [Value], columns: &mut Columns) -> bool {
        match self.typed {
            Typed::Float => {
                let ok = self.batch_floats(first, out.len(), &mut columns.floats);
                if ok {
                    for (o, &v) in out.iter_mut().zip(&columns.floats[0]) {
                        *o = Value::Float(v);
                    }
                }
                ok
            }
            Typed::Int => {
                let ok = self.batch_ints(first, out.len(), &mut columns.ints);
                if ok {
                    for (o, &v) in out.iter_mut().zip(&columns.ints[0]) {
                        *o = Value::Int(v);
                    }
                }
                ok
            }
            Typed::Mixed => {
                let ok = self.batch_values(first, out.len(), &mut columns.values);
                if ok {
                    out.copy_from_slice(&columns.values[0]);
                }
                ok
            }
        }
    }

    /// The stack machine of [`Compiled::eval_batch`] over columns of `T`, one column per stack depth: `var` gives
    /// the variable's value at an index, `push` a constant's (`None`: not of this type), `unary` and `binary`
    /// apply a step to whole columns (`false`: some element's evaluation fails, or the step is not of this type).
    /// The result in `columns[0]`.
    #[allow(clippy::too_many_arguments)]
    fn columns<T: Copy>(
        &self,
        first: i64,
        n: usize,
        columns: &mut Vec<Vec<T>>,
        var: impl Fn(i64) -> T,
        push: impl Fn(Value) -> Option<T>,
        unary: impl Fn(Step, &mut [T]) -> bool,
        binary: impl Fn(Step, &mut [T], &[T]) -> bool,
    ) -> bool {
        let mut depth = 0;
        for step in &self.ops {
            match *step {
                Step::Push(_) | Step::Var => {
                    if columns.len() == depth {
                        columns.push(Vec::new());
                    }
                    let c = &mut columns[depth];
                    c.clear();
                    if let Step::Push(v) = *step {
                        let Some(v) = push(v) else {
                            return false;
                        };
                        c.resize(n, v);
                    } else {
                        // (Stepped with wrapping: the element after the last would overflow at i64::MAX.)
                        let mut i = first;
                        for _ in 0..n {
                            c.push(var(i));
                            i = i.wrapping_add(1);
                        }
                    }
                    depth += 1;
                }
                Step::Neg | Step::Not => {
                    let Some(d) = depth.checked_sub(1) else {
                        return false;
                    };
                    if !unary(*step, &mut columns[d]) {
                        return false;
                    }
                }
                Step::MinMax(_) | Step::Binary(_) => {
                    if depth < 2 {
                        return false;
                    }
                    let (below, top) = columns.split_at_mut(depth - 1);
                    if !binary(*step, &mut below[depth - 2], &top[0]) {
                        return false;
                    }
                    depth -= 1;
                }
            }
        }
        depth == 1
    }

    /// [`Compiled::eval_batch`] of a float-only expression ([`Typed::Float`]): the same operations on `f64`s, so
    /// that each step is a plain loop.
    fn batch_floats(&self, first: i64, n: usize, columns: &mut Vec<Vec<f64>>) -> bool {
        let push = |v: Value| match v {
            Value::Float(f) => Some(f),
            Value::Int(_) => None,
        };
        let unary = |step: Step, column: &mut [f64]| {
            if !matches!(step, Step::Neg) {
                return false;
            }
            for v in column {
                *v = -*v;
            }
            true
        };
        let binary = |step: Step, a: &mut [f64], b: &[f64]| {
            macro_rules! each {
                (|$x:ident, $y:ident| $e:expr) => {
                    for (x, &$y) in a.iter_mut().zip(b) {
                        let $x = *x;
                        *x = $e;
                    }
                };
            }
            match step {
                Step::MinMax(true) => each!(|x, y| x.min(y)),
                Step::MinMax(false) => each!(|x, y| x.max(y)),
                Step::Binary(BinOp::Add) => each!(|x, y| x + y),
                Step::Binary(BinOp::Sub) => each!(|x, y| x - y),
                Step::Binary(BinOp::Mul) => each!(|x, y| x * y),
                Step::Binary(BinOp::Div) => each!(|x, y| x / y),
                Step::Binary(BinOp::Rem) => each!(|x, y| rem_f64(x, y)),
                _ => return false,
            }
            true
        };
        self.columns(first, n, columns, |i| Value::Int(i).as_f64(), push, unary, binary)
    }

    /// [`Compiled::eval_batch`] of an integer-only expression ([`Typed::Int`]): the same checked operations on
    /// `i64`s.
    fn batch_ints(&self, first: i64, n: usize, columns: &mut Vec<Vec<i64>>) -> bool {
        let push = |v: Value| match v {
            Value::Int(i) => Some(i),
            Value::Float(_) => None,
        };
        let unary = |step: Step, column: &mut [i64]| {
            if matches!(step, Step::Neg) {
                if column.contains(&i64::MIN) {
                    return false;
                }
                for v in column {
                    *v = -*v;
                }
            } else {
                for v in column {
                    *v = !*v;
                }
            }
            true
        };
        let binary = |step: Step, a: &mut [i64], b: &[i64]| {
            // Wrapping arithmetic with a flag for any overflow, as the checked operations fail on it.
            macro_rules! overflowing {
                ($f:ident) => {{
                    let mut over = false;
                    for (x, &y) in a.iter_mut().zip(b) {
                        let (r, o) = x.$f(y);
                        *x = r;
                        over |= o;
                    }
                    !over
                }};
            }
            macro_rules! each {
                ($($v:ident),*) => {
                    match step {
                        Step::MinMax(true) => {
                            for (x, &y) in a.iter_mut().zip(b) {
                                *x = (*x).min(y);
                            }
                            true
                        }
                        Step::MinMax(false) => {
                            for (x, &y) in a.iter_mut().zip(b) {
                                *x = (*x).max(y);
                            }
                            true
                        }
                        Step::Binary(BinOp::Add) => overflowing!(overflowing_add),
                        Step::Binary(BinOp::Sub) => overflowing!(overflowing_sub),
                        Step::Binary(BinOp::Mul) => overflowing!(overflowing_mul),
                        $(Step::Binary(BinOp::$v) => {
                            for (x, &y) in a.iter_mut().zip(b) {
                                match int_op(BinOp::$v, *x, y) {
                                    Ok(r) => *x = r,
                                    Err(_) => return false,
                                }
                            }
                            true
                        })*
                        _ => false,
                    }
                };
            }
            each!(Div, Rem, Shl, Shr, And, Or, Xor, Lt, Le, Gt, Ge, Eq, Ne)
        };
        self.columns(first, n, columns, |i| i, push, unary, binary)
    }

    /// [`Compiled::eval_batch`] of an expression whose values mix integers and floats: each value as a [`Value`].
    fn batch_values(&self, first: i64, n: usize, columns: &mut Vec<Vec<Value>>) -> bool {
        let unary = |step: Step, column: &mut [Value]| {
            let f = if matches!(step, Step::Neg) { neg } else { not };
            for v in column {
                match f(*v) {
                    Ok(r) => *v = r,
                    Err(_) => return false,
                }
            }
            true
        };
        let binary = |step: Step, a: &mut [Value], b: &[Value]| {
            match step {
                Step::MinMax(pick_min) => {
                    for (x, &y) in a.iter_mut().zip(b) {
                        *x = min_max(pick_min, *x, y);
                    }
                }
                Step::Binary(op) => {
                    for (x, &y) in a.iter_mut().zip(b) {
                        match binary(op, *x, y) {
                            Ok(r) => *x = r,
                            Err(_) => return false,
                        }
                    }
                }
                _ => return false,
            }
            true
        };
        self.columns(
            first,
            n,
            columns,
            |i| lift(Value::Int(i), self.float),
            Some,
            unary,
            binary,
        )
    }
}

/// `x % y` in floating point (C's `fmod`: exact, with the sign of `x`), without the library call where both are
/// integers below 2^53 (then every conversion is exact and the integer remainder is the same number; a zero
/// keeps the dividend's sign, as `fmod`'s does).
#[inline]
fn rem_f64(x: f64, y: f64) -> f64 {
    const EXACT: f64 = 9_007_199_254_740_992.0;
    #[allow(clippy::cast_possible_truncation, reason = "integers below 2^53 in magnitude: exact")]
    let (a, b) = (x as i64, y as i64);
    #[allow(
        clippy::float_cmp,
        clippy::cast_precision_loss,
        reason = "an exact test that `x` and `y` are those integers"
    )]
    if x.abs() < EXACT && y.abs() < EXACT && a as f64 == x && b as f64 == y && b != 0 {
        #[allow(clippy::cast_precision_loss, reason = "below |b| < 2^53 in magnitude: exact")]
        let r = (a % b) as f64;
        return if r == 0.0 && x.is_sign_negative() { -0.0 } else { r };
    }
    x % y
}

#[inline(always)]
fn int_op(op: BinOp, x: i64, y: i64) -> Result<i64, String> {
    let overflow = || "integer overflow in expression".to_string();
    match op {
        BinOp::Add => x.checked_add(y).ok_or_else(overflow),
        BinOp::Sub => x.checked_sub(y).ok_or_else(overflow),
        BinOp::Mul => x.checked_mul(y).ok_or_else(overflow),
        BinOp::Div => {
            if y == 0 {
                Err("division by zero in expression".into())
            } else {
                x.checked_div(y).ok_or_else(overflow)
            }
        }
        BinOp::Rem => {
            if y == 0 {
                Err("division by zero in expression".into())
            } else {
                x.checked_rem(y).ok_or_else(overflow)
            }
        }
        BinOp::Shl => {
            if (0..64).contains(&y) {
                i64::try_from(i128::from(x) << y).map_err(|_| overflow())
            } else {
                Err(format!("shift by {y} is out of range"))
            }
        }
        BinOp::Shr => {
            if (0..64).contains(&y) {
                Ok(x >> y)
            } else {
                Err(format!("shift by {y} is out of range"))
            }
        }
        BinOp::And => Ok(x & y),
        BinOp::Or => Ok(x | y),
        BinOp::Xor => Ok(x ^ y),
        BinOp::Lt => Ok(i64::from(x < y)),
        BinOp::Le => Ok(i64::from(x <= y)),
        BinOp::Gt => Ok(i64::from(x > y)),
        BinOp::Ge => Ok(i64::from(x >= y)),
        BinOp::Eq => Ok(i64::from(x == y)),
        BinOp::Ne => Ok(i64::from(x != y)),
    }
}

impl fmt::Display for ConstExpr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.fmt_prec(f, 0)
    }
}

impl ConstExpr {
    fn fmt_prec(&self, f: &mut fmt::Formatter<'_>, outer: u8) -> fmt::Result {
        match &self.kind {
            ExprKind::Int(i) => write!(f, "{i}"),
            ExprKind::Float(x) => write!(f, "{}", format_float(*x)),
            ExprKind::Var(v) => write!(f, "{v}"),
            ExprKind::Neg(e) => {
                write!(f, "-")?;
                e.fmt_prec(f, 9)
            }
            ExprKind::Not(e) => {
                write!(f, "~")?;
                e.fmt_prec(f, 9)
            }
            ExprKind::Call(name, args) => {
                write!(f, "{name}(")?;
                for (k, a) in args.iter().enumerate() {
                    if k > 0 {
                        write!(f, ", ")?;
                    }
                    a.fmt_prec(f, 0)?;
                }
                write!(f, ")")
            }
            ExprKind::Binary(op, a, b) => {
                let p = op.precedence();
                if p < outer {
                    write!(f, "(")?;
                }
                a.fmt_prec(f, p)?;
                write!(f, " {} ", op.symbol())?;
                // Left-associative: the right operand needs parentheses at equal precedence.
                b.fmt_prec(f, p + 1)?;
                if p < outer {
                    write!(f, ")")?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pseudo-random expression in `i` (a deterministic generator), of every kind of node.
    fn random_expr(seed: &mut u64, depth: u32) -> ConstExpr {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let r = *seed >> 33;
        let leaf = depth == 0 || r.is_multiple_of(5);
        let e = |kind| ConstExpr {
            kind,
            span: Span::default(),
        };
        if leaf {
            return e(match r % 4 {
                0 => ExprKind::Var("i".into()),
                1 => ExprKind::Int(r.cast_signed() % 7 - 3),
                2 => ExprKind::Float(f64::from(u32::try_from(r % 9).expect("below 9")) / 4.0 - 1.0),
                _ => ExprKind::Int(i64::MAX - (r % 3).cast_signed()),
            });
        }
        let ops = [
            BinOp::Add,
            BinOp::Sub,
            BinOp::Mul,
            BinOp::Div,
            BinOp::Rem,
            BinOp::Shl,
            BinOp::Shr,
            BinOp::And,
            BinOp::Or,
            BinOp::Xor,
            BinOp::Lt,
            BinOp::Le,
            BinOp::Gt,
            BinOp::Ge,
            BinOp::Eq,
            BinOp::Ne,
        ];
        match (r >> 8) % 5 {
            0 => e(ExprKind::Neg(Box::new(random_expr(seed, depth - 1)))),
            1 => e(ExprKind::Not(Box::new(random_expr(seed, depth - 1)))),
            2 => e(ExprKind::Call(
                if r & 1 == 0 { "min" } else { "max" }.into(),
                vec![random_expr(seed, depth - 1), random_expr(seed, depth - 1)],
            )),
            _ => e(ExprKind::Binary(
                ops[(r >> 12) as usize % ops.len()],
                Box::new(random_expr(seed, depth - 1)),
                Box::new(random_expr(seed, depth - 1)),
            )),
        }
    }

    /// The compiled form gives the tree's value, bit for bit, and fails exactly where the tree's evaluation does,
    /// in integer and floating-point arithmetic alike.
    #[test]
    fn compiled_expressions_evaluate_as_the_tree_does() {
        let mut seed = 7u64;
        let (mut values, mut errors) = (0, 0);
        for _ in 0..3000 {
            let e = random_expr(&mut seed, 5);
            for float in [false, true] {
                let c = e.compile("i", float).expect("only `i`, shallow");
                for i in [0i64, 1, 2, 5, -3, 1000, i64::MAX] {
                    let lookup = |name: &str| (name == "i").then_some(Value::Int(i));
                    let tree = e.eval_mode(&lookup, float).ok();
                    let compiled = c.eval(Value::Int(i), &mut Vec::new());
                    let bits = |v: Option<Value>| {
                        v.map(|v| match v {
                            Value::Int(k) => (0, k.cast_unsigned()),
                            Value::Float(f) => (1, f.to_bits()),
                        })
                    };
                    assert_eq!(bits(compiled), bits(tree), "{e:?} at i = {i}, float {float}");
                    if tree.is_some() {
                        values += 1;
                    } else {
                        errors += 1;
                    }
                }
            }
        }
        // (Both outcomes well represented.)
        assert!(values > 10_000 && errors > 1_000, "{values} values, {errors} errors");
    }

    /// A batch gives each element what [`Compiled::eval`] gives it, and fails exactly where one of its elements
    /// does.
    #[test]
    fn batches_evaluate_as_each_element_does() {
        let mut seed = 11u64;
        let mut columns = Columns::default();
        let (mut whole, mut failed) = (0, 0);
        // Batches evaluated on plain columns of one type ([`Typed`]), of integers and of floats.
        let mut typed = [0, 0];
        for _ in 0..2000 {
            let e = random_expr(&mut seed, 4);
            for float in [false, true] {
                let c = e.compile("i", float).expect("only `i`, shallow");
                match c.typed {
                    Typed::Int => typed[0] += 1,
                    Typed::Float => typed[1] += 1,
                    Typed::Mixed => {}
                }
                for (first, n) in [(0i64, 1usize), (0, 9), (-4, 8), (1000, 33), (i64::MAX - 5, 6)] {
                    let mut out = vec![Value::Int(0); n];
                    let last = first + (i64::try_from(n).expect("small") - 1);
                    let each: Vec<Option<Value>> =
                        (first..=last).map(|i| c.eval(Value::Int(i), &mut Vec::new())).collect();
                    if c.eval_batch(first, &mut out, &mut columns) {
                        whole += 1;
                        let bits = |v: Value| match v {
                            Value::Int(k) => (0, k.cast_unsigned()),
                            Value::Float(f) => (1, f.to_bits()),
                        };
                        for (k, v) in each.iter().enumerate() {
                            let v = v.unwrap_or_else(|| panic!("{e:?}: the batch has element {k}, eval none"));
                            assert_eq!(bits(out[k]), bits(v), "{e:?} element {k} from {first}, float {float}");
                        }
                    } else {
                        failed += 1;
                        assert!(
                            each.iter().any(Option::is_none),
                            "{e:?} from {first}: the batch failed, no element did"
                        );
                    }
                }
            }
        }
        assert!(
            whole > 5_000 && failed > 1_000,
            "{whole} whole batches, {failed} failed"
        );
        assert!(
            typed[0] > 200 && typed[1] > 200,
            "typed expressions (int, float): {typed:?}"
        );
    }

    /// The remainder's fast path gives `fmod`'s value to the bit: integers of both signs and both zeros, up to and
    /// past 2^53, fractions, infinities and NaN, and random bit patterns.
    #[test]
    fn float_remainder_is_fmod_to_the_bit() {
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            2.0,
            3.0,
            80.0,
            -80.0,
            81.0,
            -81.0,
            0.5,
            -2.5,
            1e-300,
            9_007_199_254_740_991.0,
            9_007_199_254_740_992.0,
            9_007_199_254_740_994.0,
            -9_007_199_254_740_991.0,
            1e18,
            9.223_372_036_854_776e18,
            -9.223_372_036_854_776e18,
            1e300,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
            f64::MIN_POSITIVE,
        ];
        let mut seed = 5u64;
        for k in 0..400 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            #[allow(clippy::cast_precision_loss, reason = "test values")]
            values.push(if k % 2 == 0 {
                f64::from_bits(seed)
            } else {
                ((seed >> 11).cast_signed() >> (seed % 50)) as f64
            });
        }
        for &x in &values {
            for &y in &values {
                assert_eq!(rem_f64(x, y).to_bits(), (x % y).to_bits(), "{x:e} % {y:e}");
            }
        }
    }

    #[test]
    fn only_expressions_in_the_one_variable_compile() {
        let var = |n: &str| ConstExpr {
            kind: ExprKind::Var(n.into()),
            span: Span::default(),
        };
        assert!(var("i").compile("i", false).is_some());
        assert!(var("len").compile("i", false).is_none());
    }
}
