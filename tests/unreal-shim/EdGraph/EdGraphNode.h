// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include "CoreMinimal.h"

namespace ENodeTitleType
{
	enum Type
	{
		FullTitle,
		ListView,
		EditableTitle,
		MenuTitle,
		MAX_TitleTypes,
	};
}

class UObject
{
public:
	virtual ~UObject() = default;
};

class UEdGraphNode : public UObject
{
public:
	virtual FText GetNodeTitle(ENodeTitleType::Type TitleType) const;
	virtual FText GetTooltipText() const;
	virtual FLinearColor GetNodeTitleColor() const;
};

class UK2Node : public UEdGraphNode
{
public:
	virtual FText GetMenuCategory() const;
};
