// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
// Empty stand-in for the Unreal Header Tool output AnimNode_SinewAim.generated.h.
