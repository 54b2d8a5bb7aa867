#pragma once

#include "CoreMinimal.h"
#include "AnimGraphNode_SkeletalControlBase.h"
#include "AnimNode_SinewAim.h"
#include "AnimNode_SinewCCDIK.h"
#include "AnimNode_SinewFabrik.h"
#include "AnimNode_SinewHandIKRetargeting.h"
#include "AnimNode_SinewMultiFabrik.h"
#include "AnimNode_SinewTwoBoneIK.h"
#include "AnimGraphNode_Sinew.generated.h"

/**
 * Base of the Anim Blueprint editor nodes of the Sinew anim nodes: their menu category and a
 * title naming the node's bone, like Unreal's skeletal control nodes. Each node below adds only
 * its runtime node, name, tooltip and bone.
 */
UCLASS(Abstract, MinimalAPI)
class UAnimGraphNode_SinewBase : public UAnimGraphNode_SkeletalControlBase
{
	GENERATED_BODY()

public:
	// UEdGraphNode interface
	/** "<Description>" in menus and lists (or when no bone is set), else "<Description>\nBone: <Bone>". */
	virtual FText GetNodeTitle(ENodeTitleType::Type TitleType) const override;
	// End of UEdGraphNode interface

	// UAnimGraphNode_Base interface
	virtual FString GetNodeCategory() const override;
	// End of UAnimGraphNode_Base interface

protected:
	/** The bone the title names (none by default). */
	virtual FName GetTitleBone() const { return NAME_None; }
};

/** Anim Blueprint editor node for FAnimNode_SinewTwoBoneIK. */
UCLASS(MinimalAPI)
class UAnimGraphNode_SinewTwoBoneIK : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewTwoBoneIK Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
	virtual FName GetTitleBone() const override { return Node.IKBone.BoneName; }
};

/** Anim Blueprint editor node for FAnimNode_SinewFabrik. */
UCLASS(MinimalAPI)
class UAnimGraphNode_SinewFabrik : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewFabrik Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
	virtual FName GetTitleBone() const override { return Node.TipBone.BoneName; }
};

/** Anim Blueprint editor node for FAnimNode_SinewAim ("Sinew Aim"; the menu search finds it as "Look At" too). */
UCLASS(MinimalAPI, meta = (Keywords = "Sinew Look At, LookAt, Aim"))
class UAnimGraphNode_SinewAim : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewAim Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
	virtual FName GetTitleBone() const override { return Node.TipBone.BoneName; }
};

/** Anim Blueprint editor node for FAnimNode_SinewMultiFabrik; its title names the root bone. */
UCLASS(MinimalAPI)
class UAnimGraphNode_SinewMultiFabrik : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewMultiFabrik Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
	virtual FName GetTitleBone() const override { return Node.RootBone.BoneName; }
};

/** Anim Blueprint editor node for FAnimNode_SinewCCDIK. */
UCLASS(MinimalAPI)
class UAnimGraphNode_SinewCCDIK : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewCCDIK Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
	virtual FName GetTitleBone() const override { return Node.TipBone.BoneName; }
};

/** Anim Blueprint editor node for FAnimNode_SinewHandIKRetargeting. */
UCLASS(MinimalAPI)
class UAnimGraphNode_SinewHandIKRetargeting : public UAnimGraphNode_SinewBase
{
	GENERATED_BODY()

public:
	UPROPERTY(EditAnywhere, Category = Settings)
	FAnimNode_SinewHandIKRetargeting Node;

	virtual FText GetTooltipText() const override;

protected:
	virtual FText GetControllerDescription() const override;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const override { return &Node; }
};
