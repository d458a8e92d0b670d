//! A millisecond clock for the timings panels report (e.g. time to converge) and for the
//! deadlines of work done in slices ([`crate::solver::Budget`]). Natively it is
//! `std::time::Instant`; in the browser the web layer installs `performance.now()`, since
//! `Instant` does not exist on wasm32-unknown-unknown.

use std::sync::OnceLock;

static CLOCK: OnceLock<fn() -> f64> = OnceLock::new();

/// Makes `clock` (milliseconds from any fixed origin) the source of [`now_ms`]; the first
/// installation wins.
pub fn install(clock: fn() -> f64) {
    let _ = CLOCK.set(clock);
}

/// Milliseconds since a fixed origin; NaN on wasm32 when no clock was installed.
pub fn now_ms() -> f64 {
    if let Some(clock) = CLOCK.get() {
        return clock();
    }
    native_now_ms()
}

#[cfg(not(target_arch = "wasm32"))]
fn native_now_ms() -> f64 {
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed().as_secs_f64() * 1e3
}

#[cfg(target_arch = "wasm32")]
fn native_now_ms() -> f64 {
    f64::NAN
}
