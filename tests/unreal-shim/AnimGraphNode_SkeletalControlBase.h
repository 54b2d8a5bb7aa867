// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"
#include "EdGraph/EdGraphNode.h"
#include "BoneControllers/AnimNode_SkeletalControlBase.h"

class UAnimGraphNode_Base : public UK2Node
{
public:
	virtual FText GetMenuCategory() const override;
	virtual FString GetNodeCategory() const;
};

class UAnimGraphNode_SkeletalControlBase : public UAnimGraphNode_Base
{
public:
	virtual FLinearColor GetNodeTitleColor() const override;
	virtual FText GetTooltipText() const override;
	virtual FString GetNodeCategory() const override;

protected:
	virtual FText GetControllerDescription() const;
	virtual const FAnimNode_SkeletalControlBase* GetNode() const { return nullptr; }
};
