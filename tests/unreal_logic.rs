//! Compiles `tests/cpp/unreal_logic_test.cpp` (the tests of
//! `bindings/cpp/unreal/sinew_unreal.hpp`, the engine-independent half of the SinewIK Unreal
//! plugin) with `-std=c++17 -Wall -Wextra -Werror` (plus `-Wshadow -fno-exceptions -fno-rtti`, as
//! Unreal compiles modules), links it with the cdylib cargo built for this profile
//! (`tests/common/native.rs`), runs it and requires its last line to read
//! `N passed, 0 failed`.
//!
//! What the C++ program checks, through the real library: double/float conversion and rebasing
//! (a limb 1e5 cm from the origin solves to within 1e-4 cm of the exact answer, where casting
//! absolute coordinates loses over 1e-3 cm), the mapping of Unreal node properties to Sinew
//! settings (TwoBoneIK, FABRIK, CCDIK, HandIKRetargeting, including centimetre Precision), a
//! TwoBoneIK node configuration solving like the equivalent direct C call, the engine's alpha
//! blend matching Sinew's weight, the output sorted by bone index, chain collection, and handles
//! that copies never share.

mod common;
mod unreal_support;

use common::native;
use unreal_support::{cxx_command, root};

#[test]
#[cfg_attr(not(unix), ignore = "links the cdylib with Unix linker flags")]
#[cfg_attr(
    sinew_no_cxx,
    ignore = "no C++ compiler (c++, or $CXX) was found when sinew was built: apt-get install g++"
)]
fn unreal_logic_program_passes() {
    let run = native::Run::start("unreal_logic");
    let exe = run.dir.join("unreal_logic_test");

    let mut cmd = cxx_command(&[]);
    // Unreal builds modules without exceptions or RTTI and with shadowing as an error; the
    // header must hold up under the same flags.
    cmd.args(["-Wall", "-Wextra", "-Werror", "-Wshadow", "-O1"])
        .args(["-fno-exceptions", "-fno-rtti"])
        .arg(root().join("tests/cpp/unreal_logic_test.cpp"))
        .arg("-o")
        .arg(&exe);
    native::link_sinew(&mut cmd);
    native::build(&mut cmd, "the C++ compiler");

    let output = native::run_program(&exe);
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    print!("{stdout}");
    eprint!("{stderr}");

    let summary = stdout.lines().last().unwrap_or("");
    let (passed, failed) = native::passed_failed(summary).unwrap_or_else(|| {
        panic!(
            "the program did not finish ({}): last line {summary:?}\nstderr:\n{stderr}",
            output.status
        )
    });
    assert_eq!(failed, 0, "C++ checks failed: {summary} (FAIL lines above)");
    assert!(passed > 100, "only {passed} checks ran");
    assert!(output.status.success(), "exit status {}", output.status);

    run.finish("");
}
