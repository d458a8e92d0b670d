//! A basis family typed as a formula: φⱼ(x) = f(x, μⱼ, s, j, K) for j = 1 … K.
//!
//! # Grammar
//! ```text
//! sum     = product (("+" | "-") product)*
//! product = unary (("*" | "/") unary)*
//! unary   = ("-" | "+") unary | power
//! power   = atom ("^" unary)?
//! atom    = number | name | function "(" sum ("," sum)* ")" | "(" sum ")"
//! ```
//! so `^` is right-associative and binds tighter than a unary minus, as in mathematics:
//! `-x^2` = −(x²), `2^-x` = 2^(−x), `x^2^3` = x^(2³). Numbers are written `2`, `0.5`, `.5`,
//! `1e-3`, `2.5E+3`. The names:
//!
//! | name | value |
//! |---|---|
//! | `x` | the input |
//! | `mu` (or `μ`) | the function's centre μⱼ, spread over the domain as the Gaussian family's |
//! | `s` | the width |
//! | `j` | the function's index, 1 … K |
//! | `K` | the number of functions besides the bias |
//! | `pi` (or `π`), `e` | the constants |
//!
//! and the functions exp, ln (also `log`: the natural logarithm), log10, sqrt, abs, sin,
//! cos, tan, sinh, cosh, tanh, sigmoid (σ(a) = 1/(1 + e⁻ᵃ), [`super::logistic_sigmoid`]),
//! erf, sign, floor, ceil of one argument and min, max of two. There is no implicit
//! multiplication (`2x` is an error that says to write `2*x`). As typed on any keyboard,
//! full-width characters (a Chinese input method's `（x－mu）＾２`), `−`, `×`, `·`, `÷`, `²`,
//! `³` and `**` are read as their ASCII forms; the canonical text ([`Formula`]'s `Display`)
//! is plain ASCII and reads back to the same formula.
//!
//! Errors are values ([`Error::Formula`]) naming the character where the text goes wrong,
//! counting characters, not bytes, from 1 (so `μ` or 中文 before it do not shift it). The
//! text is at most [`MAX_FORMULA_LEN`] characters and nests at most [`MAX_FORMULA_DEPTH`]
//! levels (parentheses, calls, unary signs and powers): the parser recurses, and the
//! browser's stack is small. It never panics, whatever the text.
//!
//! # Why hand-written
//! The grammar is five rules and a table of names. A crate such as `meval` or
//! `evalexpr` brings much more (variables bound at run time by string, many operators and
//! types, its own error types) into a module whose download budget is nearly spent, and
//! would still need wrapping for positions in characters, suggestions and the lab's typed
//! errors. This one is a lexer, a recursive-descent parser and a compiler in one file.
//!
//! # Evaluation
//! For each function j the formula is specialised: `mu`, `s`, `j`, `K`, `pi` and `e` become
//! numbers and every sub-expression without x is folded into one number (so
//! `exp(-(x - mu)^2/(2*s^2))` leaves x, −μⱼ, ², ÷(−2s²), exp); what is left is compiled
//! into a postfix program. A program runs over a block of up to [`CHUNK`] inputs at a time,
//! one step over the whole block, so that the cost of choosing a step is shared by the
//! block, and nothing is allocated per input. A whole exponent uses `powi` (and `x^j` agrees
//! with the polynomial family's xʲ to a few units in the last place).

use std::fmt;
use std::rc::Rc;

use crate::error::{Cause, Compact, Error, Fault, FormulaProblem, Result};

use super::centred::logistic_sigmoid;
use super::{Domain, check_formula_functions, ensure_formula_length, explained};

/// Deepest nesting of a formula: parentheses, calls, unary signs and powers, each a level.
pub const MAX_FORMULA_DEPTH: usize = 32;

/// Inputs a program takes at a time.
const CHUNK: usize = 256;

/// A variable or constant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Name {
    X,
    Mu,
    S,
    J,
    K,
    Pi,
    E,
}

/// The names a formula may use, as typed; the first spelling of each is its canonical one.
const NAMES: [(&str, Name); 10] = [
    ("x", Name::X),
    ("mu", Name::Mu),
    ("μ", Name::Mu),
    ("µ", Name::Mu),
    ("s", Name::S),
    ("j", Name::J),
    ("K", Name::K),
    ("pi", Name::Pi),
    ("π", Name::Pi),
    ("e", Name::E),
];

impl Name {
    fn text(self) -> &'static str {
        NAMES.iter().find(|(_, name)| *name == self).map_or("?", |(text, _)| text)
    }
}

/// A function of one argument; `Neg` is the unary minus.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Func {
    Neg,
    Exp,
    Ln,
    Log10,
    Sqrt,
    Abs,
    Sin,
    Cos,
    Tan,
    Sinh,
    Cosh,
    Tanh,
    Sigmoid,
    Erf,
    Sign,
    Floor,
    Ceil,
}

impl Func {
    /// f(v).
    #[inline]
    fn apply(self, v: f64) -> f64 {
        match self {
            Func::Neg => -v,
            Func::Exp => v.exp(),
            Func::Ln => v.ln(),
            Func::Log10 => v.log10(),
            Func::Sqrt => v.sqrt(),
            Func::Abs => v.abs(),
            Func::Sin => v.sin(),
            Func::Cos => v.cos(),
            Func::Tan => v.tan(),
            Func::Sinh => v.sinh(),
            Func::Cosh => v.cosh(),
            Func::Tanh => v.tanh(),
            Func::Sigmoid => logistic_sigmoid(v),
            Func::Erf => erf(v),
            // 0 at 0 (`f64::signum` gives 1), NaN at NaN.
            Func::Sign if v > 0.0 => 1.0,
            Func::Sign if v < 0.0 => -1.0,
            Func::Sign => v,
            Func::Floor => v.floor(),
            Func::Ceil => v.ceil(),
        }
    }
}

/// An operator, or a function of two arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op2 {
    Add,
    Sub,
    Mul,
    Div,
    Pow,
    Min,
    Max,
}

impl Op2 {
    /// a op b; min and max are NaN if either is (`f64::min` would hide it).
    #[inline]
    fn apply(self, a: f64, b: f64) -> f64 {
        match self {
            Op2::Add => a + b,
            Op2::Sub => a - b,
            Op2::Mul => a * b,
            Op2::Div => a / b,
            Op2::Pow => a.powf(b),
            Op2::Min | Op2::Max if a.is_nan() || b.is_nan() => f64::NAN,
            Op2::Min => a.min(b),
            Op2::Max => a.max(b),
        }
    }

    /// How it is written between its operands (min and max are calls).
    fn symbol(self) -> &'static str {
        match self {
            Op2::Add => " + ",
            Op2::Sub => " - ",
            Op2::Mul => "*",
            Op2::Div => "/",
            _ => "^",
        }
    }

    /// How tightly it binds: + − 1, * / 2 (the unary minus is 3), ^ 4; calls bind tightest.
    fn precedence(self) -> u8 {
        match self {
            Op2::Add | Op2::Sub => 1,
            Op2::Mul | Op2::Div => 2,
            Op2::Pow => 4,
            Op2::Min | Op2::Max => 5,
        }
    }
}

/// What a function name calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Callee {
    One(Func),
    Two(Op2),
}

/// The functions, as typed; the first spelling of each is its canonical one.
const FUNCTIONS: [(&str, Callee); 19] = [
    ("exp", Callee::One(Func::Exp)),
    ("ln", Callee::One(Func::Ln)),
    ("log", Callee::One(Func::Ln)),
    ("log10", Callee::One(Func::Log10)),
    ("sqrt", Callee::One(Func::Sqrt)),
    ("abs", Callee::One(Func::Abs)),
    ("sin", Callee::One(Func::Sin)),
    ("cos", Callee::One(Func::Cos)),
    ("tan", Callee::One(Func::Tan)),
    ("sinh", Callee::One(Func::Sinh)),
    ("cosh", Callee::One(Func::Cosh)),
    ("tanh", Callee::One(Func::Tanh)),
    ("sigmoid", Callee::One(Func::Sigmoid)),
    ("erf", Callee::One(Func::Erf)),
    ("sign", Callee::One(Func::Sign)),
    ("floor", Callee::One(Func::Floor)),
    ("ceil", Callee::One(Func::Ceil)),
    ("min", Callee::Two(Op2::Min)),
    ("max", Callee::Two(Op2::Max)),
];

/// Other names people use for a known one, for the suggestion of an unknown name.
const ALIASES: [(&str, &str); 10] = [
    ("sigma", "s"),
    ("σ", "s"),
    ("width", "s"),
    ("centre", "mu"),
    ("center", "mu"),
    ("i", "j"),
    ("M", "K"),
    ("logistic", "sigmoid"),
    ("expit", "sigmoid"),
    ("sgn", "sign"),
];

fn callee_text(callee: Callee) -> &'static str {
    FUNCTIONS.iter().find(|(_, c)| *c == callee).map_or("?", |(text, _)| text)
}

/// A parsed formula: a tree of numbers, names, calls and operators.
#[derive(Debug, Clone, PartialEq)]
enum Expr {
    Number(f64),
    Name(Name),
    Call(Func, Box<Expr>),
    Binary(Op2, Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Whether `name` occurs in it.
    fn uses(&self, name: Name) -> bool {
        match self {
            Expr::Number(_) => false,
            Expr::Name(n) => *n == name,
            Expr::Call(_, a) => a.uses(name),
            Expr::Binary(_, a, b) => a.uses(name) || b.uses(name),
        }
    }

    /// How tightly its outermost operator binds ([`Op2::precedence`]).
    fn precedence(&self) -> u8 {
        match self {
            Expr::Binary(op, ..) => op.precedence(),
            Expr::Call(Func::Neg, _) => 3,
            _ => 5,
        }
    }
}

/// A formula φ(x, μ, s, j, K) as the user typed it, parsed (the grammar, names and
/// functions are in the documentation of `src/basis/formula.rs`).
/// Its `Display` is the canonical text: ASCII, spaces around + and −, the fewest
/// parentheses, which parses back to the same formula, nested no deeper. It may be a few
/// characters longer than the text typed (`mu` for `μ`, `0.5` for `.5`, the spaces), so
/// that a formula within [`MAX_FORMULA_LEN`] may print beyond it: keep the typed text
/// ([`super::BasisSpec::formula`]) and show the canonical one.
///
/// # Examples
/// ```
/// use rvm_lab::basis::Formula;
///
/// let f = Formula::parse("exp(−(x−μ)²/(2·s²))").unwrap();
/// assert_eq!(f.to_string(), "exp(-(x - mu)^2/(2*s^2))");
/// let e = Formula::parse("exp(-(x - sigma)^2)").unwrap_err();
/// assert_eq!(e.to_string(), "unknown name 'sigma' at character 11 — did you mean s?");
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Formula {
    root: Expr,
}

impl Formula {
    /// Parses `text`.
    ///
    /// # Errors
    /// [`Error::Formula`] with the [`FormulaProblem`] and the character where it is.
    pub fn parse(text: &str) -> Result<Formula> {
        ensure_formula_length(text)?;
        let mut lexer = Lexer { chars: text.chars().collect(), next: 0, pending: None };
        let token = lexer.token()?;
        if token.kind == Kind::End {
            return Err(Error::Formula { problem: FormulaProblem::Empty, at: None });
        }
        let mut parser = Parser { lexer, token, depth: 0 };
        let root = parser.sum()?;
        match parser.token.kind {
            Kind::End => Ok(Formula { root }),
            _ => Err(parser.unexpected(parser.token)),
        }
    }
}

impl fmt::Display for Formula {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_expr(&self.root, f)
    }
}

/// Writes `e`, in parentheses if `wrap`.
fn write_operand(e: &Expr, wrap: bool, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    if wrap {
        f.write_str("(")?;
        write_expr(e, f)?;
        f.write_str(")")
    } else {
        write_expr(e, f)
    }
}

/// The canonical text of `e`: an operand is put in parentheses only where the parser would
/// otherwise read it differently (`a - (b + c)`, `(-x)^2`, `(x^2)^3`, `-(a*b)`).
fn write_expr(e: &Expr, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match e {
        // Parsed numbers are never negative; a negative one would need parentheses.
        Expr::Number(v) if v.is_sign_negative() => write!(f, "({})", Compact(*v)),
        Expr::Number(v) => write!(f, "{}", Compact(*v)),
        Expr::Name(name) => f.write_str(name.text()),
        Expr::Call(Func::Neg, a) => {
            f.write_str("-")?;
            write_operand(a, a.precedence() < 3, f)
        }
        Expr::Call(func, a) => {
            write!(f, "{}(", callee_text(Callee::One(*func)))?;
            write_expr(a, f)?;
            f.write_str(")")
        }
        Expr::Binary(op @ (Op2::Min | Op2::Max), a, b) => {
            write!(f, "{}(", callee_text(Callee::Two(*op)))?;
            write_expr(a, f)?;
            f.write_str(", ")?;
            write_expr(b, f)?;
            f.write_str(")")
        }
        Expr::Binary(op, a, b) => {
            let p = op.precedence();
            let pow = *op == Op2::Pow;
            write_operand(a, a.precedence() < p || (pow && a.precedence() <= p), f)?;
            f.write_str(op.symbol())?;
            // `2^-x` reads as 2^(−x): a unary minus after ^ needs no parentheses.
            let wrap = if pow { b.precedence() < 3 } else { b.precedence() <= p };
            write_operand(b, wrap, f)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Reading the text.
// ---------------------------------------------------------------------------------------

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Number(f64),
    Name,
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    Open,
    Close,
    Comma,
    End,
}

/// A token: its kind and the characters `start..end` of the text it was read from.
#[derive(Debug, Clone, Copy)]
struct Token {
    kind: Kind,
    start: usize,
    end: usize,
}

/// The ASCII form of a character typed on another keyboard: full-width forms (U+FF01 …
/// U+FF5E, a Chinese input method's), the ideographic space, the minus sign, ×, ·, ⋅, ÷.
fn plain(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        '\u{2212}' => '-',
        '×' | '·' | '⋅' => '*',
        '÷' => '/',
        _ => c,
    }
}

/// Whether `c` (already [`plain`]) continues a name: letters, digits, `_`, and any other
/// character outside ASCII that is not a space or a superscript (`μ`, `σ`, 中文), so that
/// an unknown one is named whole.
fn continues_name(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || (!c.is_ascii() && !c.is_whitespace() && !matches!(c, '²' | '³'))
}

/// Splits the text into tokens, one at a time.
struct Lexer {
    chars: Vec<char>,
    next: usize,
    /// The exponent of a `²` or `³` just read as `^`.
    pending: Option<Token>,
}

impl Lexer {
    /// The plain character at `i`, if any.
    fn at(&self, i: usize) -> Option<char> {
        self.chars.get(i).map(|&c| plain(c))
    }

    /// The first index from `i` on whose character does not satisfy `p`.
    fn skip(&self, mut i: usize, p: impl Fn(char) -> bool) -> usize {
        while self.at(i).is_some_and(&p) {
            i += 1;
        }
        i
    }

    /// The text of characters `start..end`, as typed.
    fn text(&self, start: usize, end: usize) -> String {
        self.chars[start.min(end)..end.min(self.chars.len())].iter().collect()
    }

    /// The next token.
    ///
    /// # Errors
    /// [`FormulaProblem::BadNumber`], or [`FormulaProblem::Unexpected`] for a character
    /// no token starts with.
    fn token(&mut self) -> Result<Token> {
        if let Some(token) = self.pending.take() {
            return Ok(token);
        }
        let start = self.skip(self.next, char::is_whitespace);
        let Some(c) = self.at(start) else {
            self.next = start;
            return Ok(Token { kind: Kind::End, start, end: start });
        };
        let (kind, end) = match c {
            '0'..='9' | '.' => return self.number(start),
            '+' => (Kind::Plus, start + 1),
            '-' => (Kind::Minus, start + 1),
            '*' if self.at(start + 1) == Some('*') => (Kind::Caret, start + 2),
            '*' => (Kind::Star, start + 1),
            '/' => (Kind::Slash, start + 1),
            '^' => (Kind::Caret, start + 1),
            '(' => (Kind::Open, start + 1),
            ')' => (Kind::Close, start + 1),
            ',' => (Kind::Comma, start + 1),
            '²' | '³' => {
                let power = if c == '²' { 2.0 } else { 3.0 };
                self.pending = Some(Token { kind: Kind::Number(power), start, end: start + 1 });
                (Kind::Caret, start + 1)
            }
            c if c.is_ascii_alphabetic() || c == '_' || !c.is_ascii() => (Kind::Name, self.skip(start, continues_name)),
            _ => {
                let token = self.text(start, start + 1);
                return Err(Error::Formula { problem: FormulaProblem::Unexpected { token }, at: Some(start + 1) });
            }
        };
        self.next = end;
        Ok(Token { kind, start, end })
    }

    /// A number from `start`: digits and points, then an exponent if `e` or `E` is followed
    /// by digits (with a sign or not); `2e` is the number 2 and the name e.
    fn number(&mut self, start: usize) -> Result<Token> {
        let mut end = self.skip(start, |c| c.is_ascii_digit() || c == '.');
        if matches!(self.at(end), Some('e' | 'E')) {
            let digits = if matches!(self.at(end + 1), Some('+' | '-')) { end + 2 } else { end + 1 };
            if self.at(digits).is_some_and(|c| c.is_ascii_digit()) {
                end = self.skip(digits, |c| c.is_ascii_digit());
            }
        }
        self.next = end;
        let plain_text: String = (start..end).filter_map(|i| self.at(i)).collect();
        match plain_text.parse::<f64>() {
            Ok(value) if value.is_finite() => Ok(Token { kind: Kind::Number(value), start, end }),
            _ => {
                let text = self.text(start, end);
                Err(Error::Formula { problem: FormulaProblem::BadNumber { text }, at: Some(start + 1) })
            }
        }
    }
}

/// A recursive-descent parser over the [`Lexer`], one token ahead.
struct Parser {
    lexer: Lexer,
    token: Token,
    /// Levels of [`Parser::unary`] open: every recursion passes through it.
    depth: usize,
}

impl Parser {
    /// Moves to the next token.
    fn advance(&mut self) -> Result<()> {
        self.token = self.lexer.token()?;
        Ok(())
    }

    /// [`Error::Formula`] of `problem` at `token`.
    fn error(&self, problem: FormulaProblem, token: Token) -> Error {
        Error::Formula { problem, at: Some(token.start + 1) }
    }

    /// The error for `token` where it cannot come.
    fn unexpected(&self, token: Token) -> Error {
        let problem = match token.kind {
            Kind::End => FormulaProblem::EndsEarly,
            Kind::Number(_) | Kind::Name | Kind::Open => {
                FormulaProblem::MissingOperator { token: self.lexer.text(token.start, token.end) }
            }
            _ => FormulaProblem::Unexpected { token: self.lexer.text(token.start, token.end) },
        };
        self.error(problem, token)
    }

    /// `sum = product (("+" | "-") product)*`.
    fn sum(&mut self) -> Result<Expr> {
        self.left_to_right(Self::product, |kind| match kind {
            Kind::Plus => Some(Op2::Add),
            Kind::Minus => Some(Op2::Sub),
            _ => None,
        })
    }

    /// `product = unary (("*" | "/") unary)*`.
    fn product(&mut self) -> Result<Expr> {
        self.left_to_right(Self::unary, |kind| match kind {
            Kind::Star => Some(Op2::Mul),
            Kind::Slash => Some(Op2::Div),
            _ => None,
        })
    }

    /// `operand (operator operand)*`, grouped from the left: a − b − c = (a − b) − c.
    fn left_to_right(
        &mut self,
        operand: fn(&mut Self) -> Result<Expr>,
        operator: fn(Kind) -> Option<Op2>,
    ) -> Result<Expr> {
        let mut left = operand(self)?;
        while let Some(op) = operator(self.token.kind) {
            self.advance()?;
            left = Expr::Binary(op, Box::new(left), Box::new(operand(self)?));
        }
        Ok(left)
    }

    /// `unary = ("-" | "+") unary | power`, one level deeper.
    fn unary(&mut self) -> Result<Expr> {
        if self.depth >= MAX_FORMULA_DEPTH {
            return Err(self.error(FormulaProblem::TooDeep { max: MAX_FORMULA_DEPTH }, self.token));
        }
        self.depth += 1;
        let result = match self.token.kind {
            Kind::Minus => self.advance().and_then(|()| self.unary()).map(|a| Expr::Call(Func::Neg, Box::new(a))),
            Kind::Plus => self.advance().and_then(|()| self.unary()),
            _ => self.power(),
        };
        self.depth -= 1;
        result
    }

    /// `power = atom ("^" unary)?`.
    fn power(&mut self) -> Result<Expr> {
        let base = self.atom()?;
        if self.token.kind != Kind::Caret {
            return Ok(base);
        }
        self.advance()?;
        Ok(Expr::Binary(Op2::Pow, Box::new(base), Box::new(self.unary()?)))
    }

    /// A number, a name, a call or a parenthesised sum; what follows it must not be
    /// another operand.
    fn atom(&mut self) -> Result<Expr> {
        let token = self.token;
        let atom = match token.kind {
            Kind::Number(value) => {
                self.advance()?;
                Expr::Number(value)
            }
            Kind::Open => {
                self.advance()?;
                let inner = self.sum()?;
                self.close(token)?;
                inner
            }
            Kind::Name => self.name(token)?,
            _ => return Err(self.unexpected(token)),
        };
        match self.token.kind {
            Kind::Number(_) | Kind::Name | Kind::Open => Err(self.unexpected(self.token)),
            _ => Ok(atom),
        }
    }

    /// The `)` of the `(` at `open`.
    fn close(&mut self, open: Token) -> Result<()> {
        match self.token.kind {
            Kind::Close => self.advance(),
            Kind::End => Err(self.error(FormulaProblem::Unclosed, open)),
            _ => Err(self.unexpected(self.token)),
        }
    }

    /// A variable, a constant or a call, named by `token`.
    fn name(&mut self, token: Token) -> Result<Expr> {
        let text = self.lexer.text(token.start, token.end);
        if let Some(&(_, name)) = NAMES.iter().find(|(known, _)| *known == text) {
            self.advance()?;
            return Ok(Expr::Name(name));
        }
        let Some(&(_, callee)) = FUNCTIONS.iter().find(|(known, _)| *known == text) else {
            let suggestion = suggestion(&text).map(str::to_owned);
            return Err(self.error(FormulaProblem::UnknownName { name: text, suggestion }, token));
        };
        let function = callee_text(callee).to_owned();
        self.advance()?;
        if self.token.kind != Kind::Open {
            return Err(self.error(FormulaProblem::NeedsParentheses { function }, token));
        }
        let open = self.token;
        self.advance()?;
        let mut args = vec![];
        if self.token.kind != Kind::Close {
            args.push(self.sum()?);
            while self.token.kind == Kind::Comma {
                self.advance()?;
                args.push(self.sum()?);
            }
        }
        self.close(open)?;
        let expected = if matches!(callee, Callee::One(_)) { 1 } else { 2 };
        let mut args = args.into_iter().map(Box::new);
        match (callee, args.next(), args.next(), args.len()) {
            (Callee::One(func), Some(a), None, 0) => Ok(Expr::Call(func, a)),
            (Callee::Two(op), Some(a), Some(b), 0) => Ok(Expr::Binary(op, a, b)),
            (_, first, second, rest) => {
                let got = usize::from(first.is_some()) + usize::from(second.is_some()) + rest;
                Err(self.error(FormulaProblem::ArgumentCount { function, expected, got }, token))
            }
        }
    }
}

/// The known name an unknown `name` most likely means: a usual other name for it
/// (`sigma` → s), else the closest by edit distance, ignoring case, if close enough: the
/// same letters for a name of one character, one edit for two to four, two for longer.
fn suggestion(name: &str) -> Option<&'static str> {
    if let Some(&(_, known)) = ALIASES.iter().find(|(alias, _)| alias.eq_ignore_ascii_case(name)) {
        return Some(known);
    }
    let most = match name.chars().count() {
        0 | 1 => 0,
        2..=4 => 1,
        _ => 2,
    };
    // Any spelling may be close; a name is suggested as its canonical spelling.
    let known = NAMES.iter().map(|&(text, n)| (text, n.text())).chain(FUNCTIONS.iter().map(|&(text, _)| (text, text)));
    let distances = known.map(|(text, canonical)| (edit_distance(name, text), canonical));
    distances.filter(|&(d, _)| d <= most).min_by_key(|&(d, _)| d).map(|(_, canonical)| canonical)
}

/// The Levenshtein distance between `a` and `b`, ignoring ASCII case.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().map(|c| c.to_ascii_lowercase()).enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (k, &cb) in b.iter().enumerate() {
            let above = row[k + 1];
            row[k + 1] = (above + 1).min(row[k] + 1).min(diagonal + usize::from(ca != cb));
            diagonal = above;
        }
    }
    row[b.len()]
}

/// The error function erf(x) = 2/√π ∫₀ˣ e^(−t²) dt, within about 6 units in the last place
/// (1.3·10⁻¹⁵ relative; against mpmath at 40 digits on 22 000 points). Rust has no erf, and
/// this is smaller than a port of fdlibm's rational approximations.
///
/// # Formula
/// ```text
/// erf(x) = 2/√π e^(−x²) Σₙ 2ⁿ x^(2n+1)/(1·3···(2n+1))           |x| < 2.5 (A&S 7.1.6)
/// erfc(x) = e^(−x²)/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …))))   2.5 ≤ |x| < 6 (A&S 7.1.14)
/// ```
/// where the series' terms are all positive (no cancellation) and the continued fraction is
/// taken from its 50th level down; erf is odd, and ±1 in double precision from |x| = 6 on
/// (erfc(6) ≈ 2·10⁻¹⁷).
pub fn erf(x: f64) -> f64 {
    let a = x.abs();
    if a.is_nan() {
        return x;
    }
    if a >= 6.0 {
        return 1.0_f64.copysign(x);
    }
    let root_pi = std::f64::consts::PI.sqrt();
    let value = if a < 2.5 {
        let (a2, mut term, mut sum, mut n) = (a * a, a, a, 0.0);
        while term > sum * (f64::EPSILON / 4.0) {
            n += 1.0;
            term *= 2.0 * a2 / (2.0 * n + 1.0);
            sum += term;
        }
        2.0 / root_pi * (-a2).exp() * sum
    } else {
        let fraction = (1..=50).rev().fold(a, |f, k| a + f64::from(k) / 2.0 / f);
        1.0 - (-a * a).exp() / root_pi / fraction
    };
    value.copysign(x)
}

// ---------------------------------------------------------------------------------------
// Compiling and running.
// ---------------------------------------------------------------------------------------

/// One step of a [`Program`], on the block at the top of its stack.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Step {
    /// Push the inputs.
    X,
    /// Push a number (only a formula without x needs it).
    Const(f64),
    /// top ← f(top).
    Apply(Func),
    /// top ← top^n.
    PowI(i32),
    /// top ← top op c.
    WithRight(Op2, f64),
    /// top ← c op top.
    WithLeft(Op2, f64),
    /// Pop b; top ← top op b.
    Combine(Op2),
}

/// The formula of one function, specialised and compiled: postfix steps over blocks of
/// inputs, and the most blocks its stack holds at once.
#[derive(Debug, Clone, PartialEq)]
struct Program {
    steps: Vec<Step>,
    depth: usize,
}

/// The values of the names for one function.
#[derive(Debug, Clone, Copy)]
struct Column {
    mu: f64,
    s: f64,
    j: f64,
    k: f64,
}

impl Column {
    /// The value of `name` in this function at input `x`.
    fn value(self, name: Name, x: f64) -> f64 {
        match name {
            Name::X => x,
            Name::Mu => self.mu,
            Name::S => self.s,
            Name::J => self.j,
            Name::K => self.k,
            Name::Pi => std::f64::consts::PI,
            Name::E => std::f64::consts::E,
        }
    }
}

/// The value of `e` in function `column` at input `x`, or, where it has none, the first
/// operation (innermost, left first) that gives none though its operands are numbers: why
/// (its [`Cause`]), its text with its operands' values (`ln(-1)`, `1 / 0`) and what it gives.
/// Not the programs' arithmetic (they fold and fuse), but the same operations: used only to
/// say why a function was refused.
fn fault(e: &Expr, column: Column, x: f64) -> std::result::Result<f64, (Cause, String, f64)> {
    let (value, cause, text) = match e {
        Expr::Number(value) => return Ok(*value),
        Expr::Name(name) => return Ok(column.value(*name, x)),
        Expr::Call(func, a) => {
            let v = fault(a, column, x)?;
            let cause = match func {
                Func::Ln | Func::Log10 if v < 0.0 => Cause::LogOfNegative,
                Func::Ln | Func::Log10 if v == 0.0 => Cause::LogOfZero,
                Func::Sqrt if v < 0.0 => Cause::RootOfNegative,
                _ => Cause::Overflow,
            };
            (func.apply(v), cause, format!("{}({})", callee_text(Callee::One(*func)), Compact(v)))
        }
        Expr::Binary(op, a, b) => {
            let (u, w) = (fault(a, column, x)?, fault(b, column, x)?);
            let cause = match op {
                Op2::Div if w == 0.0 => Cause::DivisionByZero,
                Op2::Pow if u == 0.0 && w < 0.0 => Cause::DivisionByZero,
                Op2::Pow if u < 0.0 => Cause::PowerOfNegative,
                _ => Cause::Overflow,
            };
            let text = match op {
                Op2::Min | Op2::Max => format!("{}({}, {})", callee_text(Callee::Two(*op)), Compact(u), Compact(w)),
                _ => format!("{}{}{}", Compact(u), op.symbol(), Compact(w)),
            };
            (op.apply(u, w), cause, text)
        }
    };
    match value {
        v if v.is_finite() => Ok(v),
        v if v.is_nan() && cause == Cause::Overflow => Err((Cause::Undefined, text, v)),
        v => Err((cause, text, v)),
    }
}

impl Program {
    /// `root` with the names of `column` put in, every part without x folded into a number.
    fn new(root: &Expr, column: Column) -> Self {
        let mut program = Program { steps: vec![], depth: 0 };
        let mut height = 0;
        if let Some(value) = program.emit(root, column, &mut height) {
            program.steps.push(Step::Const(value));
            program.depth = 1;
        }
        program
    }

    /// Appends the steps of `e` (whose result goes on the stack, now `height` blocks
    /// high), or returns its value if it does not depend on x.
    fn emit(&mut self, e: &Expr, column: Column, height: &mut usize) -> Option<f64> {
        let step = match e {
            Expr::Number(value) => return Some(*value),
            Expr::Name(Name::X) => {
                *height += 1;
                self.depth = self.depth.max(*height);
                Step::X
            }
            Expr::Name(name) => return Some(column.value(*name, f64::NAN)),
            Expr::Call(func, a) => match self.emit(a, column, height) {
                Some(value) => return Some(func.apply(value)),
                None => Step::Apply(*func),
            },
            Expr::Binary(op, a, b) => match (self.emit(a, column, height), self.emit(b, column, height)) {
                (Some(a), Some(b)) => return Some(op.apply(a, b)),
                (None, Some(n)) if *op == Op2::Pow && n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX) => {
                    Step::PowI(n as i32)
                }
                (None, Some(b)) => Step::WithRight(*op, b),
                (Some(a), None) if *op == Op2::Pow && a == std::f64::consts::E => Step::Apply(Func::Exp),
                (Some(a), None) => Step::WithLeft(*op, a),
                (None, None) => {
                    *height -= 1;
                    Step::Combine(*op)
                }
            },
        };
        // −a·c and −a/c are a·(−c) and a/(−c), exactly: fold the sign into the constant.
        match (step, self.steps.last_mut()) {
            (Step::WithRight(op @ (Op2::Mul | Op2::Div), c), Some(last)) if *last == Step::Apply(Func::Neg) => {
                *last = Step::WithRight(op, -c);
            }
            _ => self.steps.push(step),
        }
        None
    }

    /// Writes the value at each of `xs` into `out` (as long), with `stack` (at least
    /// `depth` × |xs| long) for the blocks.
    fn run(&self, xs: &[f64], stack: &mut [f64], out: &mut [f64]) {
        let n = xs.len();
        let mut top = 0;
        for &step in &self.steps {
            match step {
                Step::X | Step::Const(_) => {
                    let slot = &mut stack[top * n..(top + 1) * n];
                    match step {
                        Step::Const(value) => slot.fill(value),
                        _ => slot.copy_from_slice(xs),
                    }
                    top += 1;
                }
                Step::Combine(op) => {
                    top -= 1;
                    let (below, above) = stack.split_at_mut(top * n);
                    combine(op, &mut below[(top - 1) * n..], &above[..n]);
                }
                _ => step_on(step, &mut stack[(top - 1) * n..top * n]),
            }
        }
        out.copy_from_slice(&stack[..n]);
    }
}

/// `step` (one that keeps the stack's height) on the top `block`. The commonest steps have
/// their own loops, chosen once per block rather than per input, so that they run at the
/// speed of the arithmetic.
fn step_on(step: Step, block: &mut [f64]) {
    match step {
        Step::Apply(Func::Neg) => block.iter_mut().for_each(|v| *v = -*v),
        Step::Apply(Func::Exp) => block.iter_mut().for_each(|v| *v = v.exp()),
        Step::Apply(func) => block.iter_mut().for_each(|v| *v = func.apply(*v)),
        Step::PowI(2) => block.iter_mut().for_each(|v| *v *= *v),
        Step::PowI(power) => block.iter_mut().for_each(|v| *v = v.powi(power)),
        Step::WithRight(Op2::Add, b) => block.iter_mut().for_each(|v| *v += b),
        Step::WithRight(Op2::Sub, b) => block.iter_mut().for_each(|v| *v -= b),
        Step::WithRight(Op2::Mul, b) => block.iter_mut().for_each(|v| *v *= b),
        Step::WithRight(Op2::Div, b) => block.iter_mut().for_each(|v| *v /= b),
        Step::WithRight(op, b) => block.iter_mut().for_each(|v| *v = op.apply(*v, b)),
        Step::WithLeft(op, a) => block.iter_mut().for_each(|v| *v = op.apply(a, *v)),
        Step::X | Step::Const(_) | Step::Combine(_) => {}
    }
}

/// `left` ← `left` op `right`, entry by entry.
fn combine(op: Op2, left: &mut [f64], right: &[f64]) {
    let pairs = left.iter_mut().zip(right);
    match op {
        Op2::Add => pairs.for_each(|(a, &b)| *a += b),
        Op2::Mul => pairs.for_each(|(a, &b)| *a *= b),
        _ => pairs.for_each(|(a, &b)| *a = op.apply(*a, b)),
    }
}

/// The K functions of a formula basis: the parsed formula, the centres μⱼ and width s it
/// sees, and each function's program.
#[derive(Debug, Clone, PartialEq)]
pub struct FormulaSet {
    formula: Rc<Formula>,
    centres: Vec<f64>,
    width: f64,
    domain: Domain,
    programs: Vec<Program>,
}

impl FormulaSet {
    /// The functions of the formula `text` at `centres` (one per function, K of them),
    /// width s, checked finite at the points of `domain` that
    /// [`check_formula_functions`] names.
    ///
    /// # Errors
    /// As [`FormulaSet::unchecked`]; [`Error::FunctionNotFinite`] for a function with no
    /// finite value at a checked point.
    pub(super) fn new(text: &str, centres: Vec<f64>, width: f64, domain: Domain) -> Result<Self> {
        let set = Self::unchecked(text, centres, width, (domain.lo, domain.hi))?;
        set.check(0..set.len())?;
        Ok(set)
    }

    /// The same, not checked finite: the formula module's, where the page's module checks
    /// them (it has the numbers' text for the message). `(lo, hi)` must be a domain
    /// (finite, lo < hi), as the page's module has checked.
    ///
    /// # Errors
    /// [`Error::Formula`]: the text does not parse, does not use x
    /// ([`FormulaProblem::NoX`]), or with K ≥ 2 uses neither mu nor j (so every function
    /// would be the same: [`FormulaProblem::SameFunctions`]).
    pub fn unchecked(text: &str, centres: Vec<f64>, width: f64, (lo, hi): (f64, f64)) -> Result<Self> {
        let formula = Formula::parse(text)?;
        let root = &formula.root;
        let problem = if !root.uses(Name::X) {
            Some(FormulaProblem::NoX)
        } else if centres.len() >= 2 && !root.uses(Name::Mu) && !root.uses(Name::J) {
            Some(FormulaProblem::SameFunctions)
        } else {
            None
        };
        if let Some(problem) = problem {
            return Err(Error::Formula { problem, at: None });
        }
        let domain = Domain { lo, hi };
        let mut set = Self { formula: Rc::new(formula), centres, width, domain, programs: vec![] };
        set.programs = (0..set.len()).map(|j| set.program(j)).collect();
        Ok(set)
    }

    /// K.
    pub(super) fn len(&self) -> usize {
        self.centres.len()
    }

    /// The formula.
    pub(super) fn formula(&self) -> &Formula {
        &self.formula
    }

    /// The centres μⱼ.
    pub(super) fn centres(&self) -> &[f64] {
        &self.centres
    }

    /// Whether the formula uses its centre `mu` (else moving a centre changes nothing, and
    /// the basis shows none).
    pub fn uses_centres(&self) -> bool {
        self.formula.root.uses(Name::Mu)
    }

    /// Moves the centre of function `j` (< K) to `mu`, and checks that function again.
    ///
    /// # Errors
    /// [`Error::FunctionNotFinite`] as [`FormulaSet::new`].
    pub(super) fn move_centre(&mut self, j: usize, mu: f64) -> Result<()> {
        self.centres[j] = mu;
        self.programs[j] = self.program(j);
        self.check(j..j + 1)
    }

    /// The names' values in function `j`.
    fn column(&self, j: usize) -> Column {
        Column { mu: self.centres[j], s: self.width, j: (j + 1) as f64, k: self.len() as f64 }
    }

    /// The program of function `j`.
    fn program(&self, j: usize) -> Program {
        Program::new(&self.formula.root, self.column(j))
    }

    /// Why function `j` (from 0) has no finite value at `x`: the first operation that gives
    /// none ([`fault`]: its cause, its text and what it gives, as text); `None` where it has
    /// one, or for no function `j`.
    pub fn explain(&self, j: usize, x: f64) -> Option<Fault> {
        if j >= self.len() {
            return None;
        }
        let (cause, operation, value) = fault(&self.formula.root, self.column(j), x).err()?;
        Some(Fault { cause, operation, value: Compact(value).to_string() })
    }

    /// Checks the functions `js` finite over the domain ([`check_formula_functions`]), a
    /// refusal naming the operation that gives no value ([`explained`]).
    fn check(&self, js: std::ops::Range<usize>) -> Result<()> {
        check_formula_functions(self.domain, js.clone(), |grid, out| fill(&self.programs[js], grid, out))
            .map_err(|error| explained(error, |j, x| self.explain(j, x)))
    }

    /// Writes the K values at `x` into `out`; NaN or ±∞ where a function has no value.
    pub(super) fn eval_into(&self, x: f64, out: &mut [f64]) {
        fill(&self.programs, std::slice::from_ref(&x), out);
    }

    /// Writes the K columns of Φ for inputs `x` into `out` (column after column, as long
    /// as x each); NaN or ±∞ where a function has no value.
    pub fn fill_columns(&self, x: &[f64], out: &mut [f64]) {
        fill(&self.programs, x, out);
    }
}

/// Runs each of `programs` over `x`, [`CHUNK`] inputs at a time, into its column of `out`.
fn fill(programs: &[Program], x: &[f64], out: &mut [f64]) {
    let depth = programs.iter().map(|p| p.depth).max().unwrap_or(0);
    let mut stack = vec![0.0; depth * CHUNK.min(x.len())];
    for (program, column) in programs.iter().zip(out.chunks_mut(x.len().max(1))) {
        for (xs, values) in x.chunks(CHUNK).zip(column.chunks_mut(CHUNK)) {
            program.run(xs, &mut stack, values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::basis::DEFAULT_FORMULA;

    fn parse(text: &str) -> Formula {
        Formula::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn message(text: &str) -> String {
        Formula::parse(text).unwrap_err().to_string()
    }

    /// The value of `text` at x for function j of K, centre mu, width s (one input).
    fn value(text: &str, x: f64, (mu, s, j, k): (f64, f64, f64, f64)) -> f64 {
        let program = Program::new(&parse(text).root, Column { mu, s, j, k });
        let (mut stack, mut out) = (vec![0.0; program.depth], [0.0]);
        program.run(&[x], &mut stack, &mut out);
        out[0]
    }

    #[test]
    fn precedence_and_associativity_follow_mathematics() {
        let at = |text: &str, x: f64| value(text, x, (0.0, 1.0, 1.0, 1.0));
        assert_eq!(at("-x^2", 3.0), -9.0, "−(x²)");
        assert_eq!(at("2^-x", 1.0), 0.5, "2^(−x)");
        assert_eq!(at("x^2^3", 2.0), 256.0, "x^(2³)");
        assert_eq!(at("x - 1 - 2", 10.0), 7.0, "left to right");
        assert_eq!(at("x/2/5", 100.0), 10.0);
        assert_eq!(at("2*x + 3*x^2", 2.0), 16.0);
        assert_eq!(at("--x", 4.0), 4.0);
        assert_eq!(at("+x*-2", 4.0), -8.0);
        assert_eq!(at("(1 + x)*(1 - x)", 3.0), -8.0);
        assert_eq!(at("x^.5 + 1e-3 + 2.5E+3", 4.0), 2.0 + 1e-3 + 2500.0);
        assert_eq!(at("x**2", 3.0), 9.0);
        assert_eq!(at("x²·3 − x³", 2.0), 4.0);
        assert_eq!(at("（x－1）＾２", 4.0), 9.0, "full-width");
    }

    #[test]
    fn names_take_their_values() {
        // μ = 2, s = 0.5, j = 3, K = 7.
        let at = |text: &str| value(text, 1.0, (2.0, 0.5, 3.0, 7.0));
        assert_eq!(at("x + mu + s + j + K"), 1.0 + 2.0 + 0.5 + 3.0 + 7.0);
        assert_eq!(at("μ*x - µ"), 0.0);
        assert_eq!(at("x*pi"), std::f64::consts::PI);
        assert_eq!(at("x*π - pi"), 0.0);
        assert_eq!(at("e^x"), std::f64::consts::E);
        assert_eq!(at("x*e"), std::f64::consts::E);
    }

    #[test]
    fn functions_by_hand() {
        let at = |text: &str, x: f64| value(text, x, (0.0, 1.0, 1.0, 1.0));
        assert_eq!(at("exp(x)", 0.0), 1.0);
        assert_eq!(at("ln(x)", std::f64::consts::E), 1.0);
        assert_eq!(at("log(x)", 1.0), 0.0);
        assert_eq!(at("log10(x)", 1000.0), 3.0);
        assert_eq!(at("sqrt(x)", 9.0), 3.0);
        assert_eq!(at("abs(x)", -2.5), 2.5);
        assert_eq!(at("sin(x) + cos(x) + tan(x)", 0.0), 1.0);
        assert_eq!(at("sinh(x) + cosh(x) + tanh(x)", 0.0), 1.0);
        // σ(ln 3) = 1/(1 + 1/3) = 3/4.
        assert!((at("sigmoid(x)", 3.0_f64.ln()) - 0.75).abs() < 1e-15);
        assert_eq!(at("sign(x)", -3.0) + at("sign(x)", 0.0) + at("sign(x)", 0.1), 0.0);
        assert_eq!(at("floor(x) + ceil(x)", 1.5), 3.0);
        assert_eq!(at("min(x, 2) + max(x, 5)", 3.0), 7.0);
        assert!(at("min(x, 1)", f64::NAN).is_nan(), "min keeps a NaN");
        assert!(at("max(0, ln(x))", -1.0).is_nan(), "max keeps a NaN");
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // erf from mpmath 1.3 at 40 digits, rounded to f64 (the first five also in Abramowitz &
        // Stegun table 7.1), on both sides of the switch at 2.5; erf is odd, erf(x) → 2x/√π
        // as x → 0, and 1 from x = 6 on.
        let table = [
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.499_999_999, 0.999_593_047_980_376_7),
            (2.5, 0.999_593_047_982_555),
            (3.0, 0.999_977_909_503_001_4),
            (4.0, 0.999_999_984_582_742_1),
            (5.5, 0.999_999_999_999_992_7),
        ];
        for (x, want) in table {
            assert!((erf(x) - want).abs() <= 6.0 * f64::EPSILON * want, "erf({x}) = {}", erf(x));
            assert_eq!(erf(-x), -erf(x));
        }
        // erfc(4) = 1.5417257900280020e-8 (mpmath): 1 − erf keeps its first eight digits.
        assert!(((1.0 - erf(4.0)) / 1.541_725_790_028_002e-8 - 1.0).abs() < 1e-7);
        for tiny in [1e-10, 1e-300] {
            assert!((erf(tiny) / (tiny * 2.0 / std::f64::consts::PI.sqrt()) - 1.0).abs() < 1e-15);
        }
        assert_eq!((erf(0.0), erf(6.0), erf(f64::NEG_INFINITY)), (0.0, 1.0, -1.0));
        assert!(erf(f64::NAN).is_nan());
    }

    #[test]
    fn erf_is_the_integral_of_the_gaussian() {
        // Simpson's rule with 2000 intervals on 2/√π e^(−t²) over [0, x]: error below
        // x⁵/(180·2000⁴)·max|f⁗| ≈ 1e-15 for x ≤ 3.
        for x in [0.05, 0.3, 0.8, 1.7, 2.4, 3.0] {
            let n = 2000;
            let h = x / n as f64;
            let f = |t: f64| 2.0 / std::f64::consts::PI.sqrt() * (-t * t).exp();
            let inner: f64 = (1..n).map(|i| f(i as f64 * h) * if i % 2 == 1 { 4.0 } else { 2.0 }).sum();
            let simpson = h / 3.0 * (f(0.0) + inner + f(x));
            assert!((erf(x) - simpson).abs() < 1e-14, "erf({x}) = {} vs {simpson}", erf(x));
        }
    }

    #[test]
    fn constants_are_folded_and_whole_powers_use_powi() {
        let program = Program::new(&parse(DEFAULT_FORMULA).root, Column { mu: 0.5, s: 0.1, j: 1.0, k: 1.0 });
        let want = [
            Step::X,
            Step::WithRight(Op2::Sub, 0.5),
            Step::PowI(2),
            Step::WithRight(Op2::Div, -(2.0 * 0.1 * 0.1)),
            Step::Apply(Func::Exp),
        ];
        assert_eq!((program.steps.as_slice(), program.depth), (&want[..], 1));
        let program = Program::new(&parse("x^j + 2^x - x*x").root, Column { mu: 0.0, s: 1.0, j: 3.0, k: 4.0 });
        let want = [
            Step::X,
            Step::PowI(3),
            Step::X,
            Step::WithLeft(Op2::Pow, 2.0),
            Step::Combine(Op2::Add),
            Step::X,
            Step::X,
            Step::Combine(Op2::Mul),
            Step::Combine(Op2::Sub),
        ];
        assert_eq!((program.steps.as_slice(), program.depth), (&want[..], 3));
        assert_eq!(Program::new(&parse("x^1e12").root, Column { mu: 0.0, s: 1.0, j: 1.0, k: 1.0 }).steps[1], {
            Step::WithRight(Op2::Pow, 1e12)
        });
    }

    #[test]
    fn the_canonical_text_reads_back() {
        let cases = [
            ("exp( -(x-mu)^2 / (2*s^2) )", "exp(-(x - mu)^2/(2*s^2))"),
            ("1/(1+exp(-(x-μ)/s))", "1/(1 + exp(-(x - mu)/s))"),
            ("(-x)^2 + -x^2", "(-x)^2 + -x^2"),
            ("(x^2)^3 * x^2^3", "(x^2)^3*x^2^3"),
            ("2^(-x) - (x - 1) - (x + 1)", "2^-x - (x - 1) - (x + 1)"),
            ("2^-x^2*x", "2^-x^2*x"),
            ("x/(2*s)/(x/j)", "x/(2*s)/(x/j)"),
            ("-(x*2) + --x + +x", "-(x*2) + --x + x"),
            ("log(min(x,1))", "ln(min(x, 1))"),
            ("x*1e-7 + 1e16 + .5", "x*1e-7 + 1e16 + 0.5"),
            ("π*e*K*j", "pi*e*K*j"),
            ("x²", "x^2"),
        ];
        for (text, canonical) in cases {
            let formula = parse(text);
            assert_eq!(formula.to_string(), canonical, "{text}");
            assert_eq!(parse(canonical), formula, "{canonical}");
        }
    }

    #[test]
    fn errors_name_the_problem_and_the_character() {
        let cases = [
            ("", "the formula is empty"),
            ("   ", "the formula is empty"),
            ("exp(-(x - mu)^2))", "unexpected ')' at character 17"),
            ("x + ", "the formula ends too soon at character 5: a number, a name or '(' must follow"),
            ("x * * 2", "unexpected '*' at character 5"),
            ("2 ( x", "missing an operator before '(' at character 3: write 2*x, not 2x"),
            ("sin((x)", "missing ')' for the '(' at character 4"),
            ("exp(-(x - sigma)^2)", "unknown name 'sigma' at character 11 — did you mean s?"),
            ("μ + σ*x", "unknown name 'σ' at character 5 — did you mean s?"),
            ("exq(x)", "unknown name 'exq' at character 1 — did you mean exp?"),
            ("k*x", "unknown name 'k' at character 1 — did you mean K?"),
            ("y + x", "unknown name 'y' at character 1"),
            ("gamma(x)", "unknown name 'gamma' at character 1"),
            ("exp(x, 2)", "exp at character 1 takes 1 argument, got 2"),
            ("2*max(x)", "max at character 3 takes 2 arguments, got 1"),
            ("x + exp()", "exp at character 5 takes 1 argument, got 0"),
            ("min(x, 1, 2)", "min at character 1 takes 2 arguments, got 3"),
            ("x + 1.2.3", "'1.2.3' at character 5 is not a number"),
            ("x^1e999", "'1e999' at character 3 is not a number"),
            (". + x", "'.' at character 1 is not a number"),
            ("2x", "missing an operator before 'x' at character 2: write 2*x, not 2x"),
            ("2e", "missing an operator before 'e' at character 2: write 2*x, not 2x"),
            ("x(x + 1)", "missing an operator before '(' at character 2: write 2*x, not 2x"),
            ("exp x", "exp at character 1 needs its argument in parentheses: exp(…)"),
            ("x = 1", "unexpected '=' at character 3"),
            ("(x, 1)", "unexpected ',' at character 3"),
            ("中文 μ x", "unknown name '中文' at character 1"),
            ("μμ + 1.2.3", "unknown name 'μμ' at character 1 — did you mean mu?"),
            ("x +\u{3000}\u{FF08}1 ＋ ）", "unexpected '）' at character 10"),
        ];
        for (text, want) in cases {
            assert_eq!(message(text), want, "{text:?}");
        }
        let e = Formula::parse("x + (").unwrap_err();
        assert_eq!(e.code(), "formula-ends-early");
        assert_eq!(e.args(), [("at", "6".to_owned())]);
        let e = Formula::parse("x*sigma").unwrap_err();
        assert_eq!(e.code(), "formula-unknown-name-suggestion");
        let want = [("at", "3"), ("name", "sigma"), ("suggestion", "s")].map(|(k, v)| (k, v.to_owned()));
        assert_eq!(e.args(), want);
    }

    #[test]
    fn length_and_depth_are_limited() {
        let long = "x".to_owned() + &"+x".repeat(100);
        assert_eq!(message(&long), "the formula is too long: 201 characters, at most 200");
        let e = Formula::parse(&long).unwrap_err();
        assert_eq!((e.code(), e.args()), ("formula-too-long", vec![("length", "201".into()), ("max", "200".into())]));
        // 200 characters of μ are 400 bytes, and still within the limit.
        assert!(Formula::parse(&"μ".repeat(200)).unwrap_err().to_string().starts_with("unknown name"));
        // Each of ( … ) and each unary sign is a level: 31 more inside the top one pass.
        let nested = |levels: usize| format!("{}x{}", "(".repeat(levels), ")".repeat(levels));
        assert_eq!(parse(&nested(31)), parse("x"));
        assert_eq!(message(&nested(32)), "the formula is nested too deep at character 33: at most 32 levels");
        assert!(Formula::parse(&format!("{}x", "-".repeat(31))).is_ok());
        assert_eq!(message(&format!("{}x", "-".repeat(40))), {
            "the formula is nested too deep at character 33: at most 32 levels"
        });
        assert!(message(&"x^".repeat(40)).starts_with("the formula is nested too deep at character"));
        assert!(message(&"exp(".repeat(40)).starts_with("the formula is nested too deep at character"));
    }

    #[test]
    fn suggestions_are_close_or_usual_names() {
        assert_eq!(suggestion("sigma"), Some("s"));
        assert_eq!(suggestion("Width"), Some("s"));
        assert_eq!(suggestion("X"), Some("x"));
        assert_eq!(suggestion("EXP"), Some("exp"));
        assert_eq!(suggestion("sigmod"), Some("sigmoid"));
        assert_eq!(suggestion("sqr"), Some("sqrt"));
        assert_eq!(suggestion("nu"), Some("mu"));
        assert_eq!(suggestion("t"), None);
        assert_eq!(suggestion("banana"), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }

    #[test]
    fn nasty_text_never_panics() {
        for text in
            ["\u{0}", "💥", "x\u{feff}", "((((", "))))", ",,,", "^^", "1e", "1e+", ".e5", "²", "³x", "x²²", "**x"]
        {
            let _ = Formula::parse(text);
        }
        assert_eq!(message("²"), "unexpected '²' at character 1");
        assert_eq!(parse("x²²"), parse("x^2^2"));
    }

    #[test]
    fn a_block_of_inputs_gives_the_values_one_at_a_time() {
        let domain = Domain::new((0.0, 1.0)).unwrap();
        let set = FormulaSet::new("max(x - mu, 0)^2*j + sin(K*x)", vec![0.2, 0.5, 0.9], 0.1, domain).unwrap();
        let x: Vec<f64> = (0..CHUNK + 37).map(|i| i as f64 / 200.0 - 0.3).collect();
        let mut columns = vec![0.0; 3 * x.len()];
        set.fill_columns(&x, &mut columns);
        for (n, &xn) in x.iter().enumerate() {
            let mut one = [0.0; 3];
            set.eval_into(xn, &mut one);
            for (j, mu) in [0.2, 0.5, 0.9].into_iter().enumerate() {
                let want = (xn - mu).max(0.0).powi(2) * (j + 1) as f64 + (3.0 * xn).sin();
                assert_eq!(one[j], columns[j * x.len() + n]);
                assert!((one[j] - want).abs() < 1e-15, "x = {xn}, j = {j}");
            }
        }
    }
}
