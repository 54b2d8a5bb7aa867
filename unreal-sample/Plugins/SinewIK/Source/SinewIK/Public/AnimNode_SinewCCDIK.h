#pragma once

#include "CoreMinimal.h"
#include "AnimNode_SinewBase.h"
#include "AnimNode_SinewCCDIK.generated.h"

/**
 * CCD IK solved by Sinew: a drop-in for Unreal's CCDIK node (same properties and defaults:
 * root and tip bones, effector location and space, Precision in centimetres, MaxIterations,
 * bStartFromTail, per-joint rotation limits in degrees). As in Unreal the root bone does not
 * rotate and the tip keeps its rotation relative to its parent.
 */
USTRUCT(BlueprintInternalUseOnly)
struct SINEWIK_API FAnimNode_SinewCCDIK : public FAnimNode_SinewChainIKBase
{
	GENERATED_BODY()

	/** Target of the tip bone; with a bone space, the offset from EffectorTarget. */
	UPROPERTY(EditAnywhere, BlueprintReadWrite, Category = Effector, meta = (PinShownByDefault))
	FVector EffectorLocation = FVector::ZeroVector;

	/** Reference frame of EffectorLocation. */
	UPROPERTY(EditAnywhere, Category = Effector)
	TEnumAsByte<EBoneControlSpace> EffectorLocationSpace = BCS_ComponentSpace;

	/** Each sweep starts at the bone nearest the tip. */
	UPROPERTY(EditAnywhere, Category = Solver)
	bool bStartFromTail = true;

	/** Limit how far each joint turns from its animated rotation (RotationLimitPerJoints). */
	UPROPERTY(EditAnywhere, Category = Solver)
	bool bEnableRotationLimit = false;

	/** Degrees each joint may turn from its input rotation; index 0 is the root. Missing entries are unlimited. */
	UPROPERTY(EditAnywhere, Category = Solver, meta = (EditCondition = "bEnableRotationLimit"))
	TArray<float> RotationLimitPerJoints;

	/** Sinew: let the root bone rotate too (Unreal's node keeps it fixed). */
	UPROPERTY(EditAnywhere, Category = "Solver|Sinew")
	bool bRotateRoot = false;

	FAnimNode_SinewCCDIK() = default;

	sinew_unreal::CcdNodeParams MakeParams() const;

protected:
	virtual const TCHAR* GetSinewName() const override { return TEXT("Sinew CCDIK"); }
	virtual SinewIK::FTargetSpace GetEffector() const override;
	virtual SinewStatus Solve(FComponentSpacePoseContext& Output, const FTransform& EffectorCS,
		SinewIK::FChainBuffers& Buffers, uint32 Count) override;

private:
	/** Created on first evaluation; a copied node starts without one (never shared). */
	sinew_unreal::CcdInstance Native;
};
