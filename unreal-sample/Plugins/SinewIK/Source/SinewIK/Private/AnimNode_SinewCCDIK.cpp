#include "AnimNode_SinewCCDIK.h"

sinew_unreal::CcdNodeParams FAnimNode_SinewCCDIK::MakeParams() const
{
	sinew_unreal::CcdNodeParams Params;
	MakeChainParams(Params);
	Params.start_from_tail = bStartFromTail;
	Params.enable_rotation_limit = bEnableRotationLimit;
	Params.rotate_root = bRotateRoot;
	return Params;
}

SinewIK::FTargetSpace FAnimNode_SinewCCDIK::GetEffector() const
{
	return SinewIK::FTargetSpace{EffectorLocationSpace, FTransform(EffectorLocation)};
}

SinewStatus FAnimNode_SinewCCDIK::Solve(FComponentSpacePoseContext& /*Output*/, const FTransform& EffectorCS,
	SinewIK::FChainBuffers& Buffers, uint32 Count)
{
	const sinew_unreal::CcdNodeParams Params = MakeParams();
	SinewStatus Status = Native.prepare(sinew_unreal::ccd_settings(Params), Count);
	if (Status == SINEW_STATUS_OK)
	{
		// Limits are per chain joint and cheap to set; setting them every evaluation keeps them
		// right when a pin drives the array or the solver was recreated for a longer chain.
		Status = sinew_unreal::apply_ccd_rotation_limits(Native.get(), Count, Params.enable_rotation_limit,
			RotationLimitPerJoints.GetData(), static_cast<size_t>(RotationLimitPerJoints.Num()));
	}
	return Status == SINEW_STATUS_OK ? SolveChain(Native.get(), EffectorCS, nullptr, Buffers, Count) : Status;
}
