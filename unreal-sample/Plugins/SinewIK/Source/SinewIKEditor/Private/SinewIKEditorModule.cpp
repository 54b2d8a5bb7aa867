#include "Modules/ModuleManager.h"
#include "SinewIKEditorText.h"

#define LOCTEXT_NAMESPACE "SinewIK"

FString SinewIKEditor::NodeCategory()
{
	return TEXT("Sinew IK");
}

FText SinewIKEditor::NodeTitle(const FText& Description, FName Bone, ENodeTitleType::Type TitleType)
{
	const bool bShort = TitleType == ENodeTitleType::ListView || TitleType == ENodeTitleType::MenuTitle;
	if (bShort || Bone == NAME_None)
	{
		return Description;
	}
	return FText::Format(LOCTEXT("NodeTitleWithBone", "{0}\nBone: {1}"), Description, FText::FromName(Bone));
}

#undef LOCTEXT_NAMESPACE

IMPLEMENT_MODULE(FDefaultModuleImpl, SinewIKEditor)
