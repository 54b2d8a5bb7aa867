#include "AnimNode_SinewFabrik.h"

static_assert(BRS_KeepComponentSpaceRotation == 0 && BRS_KeepLocalSpaceRotation == 1 && BRS_CopyFromTarget == 2,
	"sinew_unreal::BoneRotationSource mirrors EBoneRotationSource");

sinew_unreal::FabrikNodeParams FAnimNode_SinewFabrik::MakeParams() const
{
	sinew_unreal::FabrikNodeParams Params;
	MakeChainParams(Params);
	Params.effector_rotation_source = static_cast<sinew_unreal::BoneRotationSource>(EffectorRotationSource.GetValue());
	return Params;
}

SinewIK::FTargetSpace FAnimNode_SinewFabrik::GetEffector() const
{
	return SinewIK::FTargetSpace{EffectorTransformSpace, EffectorTransform};
}

SinewStatus FAnimNode_SinewFabrik::Solve(FComponentSpacePoseContext& /*Output*/, const FTransform& EffectorCS,
	SinewIK::FChainBuffers& Buffers, uint32 Count)
{
	const sinew_unreal::DQuat EffectorRotation = SinewIK::ToSinew(EffectorCS.GetRotation());
	const SinewStatus Status = Native.prepare(sinew_unreal::fabrik_settings(MakeParams()), Count);
	return Status == SINEW_STATUS_OK ? SolveChain(Native.get(), EffectorCS, &EffectorRotation, Buffers, Count) : Status;
}
