// UNREAL SHIM: syntax check only, NOT Unreal Engine and not a substitute for an engine build.
// Declares just what the SinewIK plugin uses (see tests/unreal-shim/README.md).
#pragma once

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// ---------------------------------------------------------------- platform and module macros
#define PLATFORM_WINDOWS 0
#define PLATFORM_MAC 0
#define PLATFORM_LINUX 1
#define PLATFORM_LINUXARM64 0
#define PLATFORM_IOS 0
#define PLATFORM_ANDROID 0
#define WITH_EDITOR 1
#define WITH_EDITORONLY_DATA 1
#define SINEWIK_API
#define SINEWIKEDITOR_API
#define THIRD_PARTY_INCLUDES_START
#define THIRD_PARTY_INCLUDES_END

// ---------------------------------------------------------------- reflection macros (UHT input)
#define UCLASS(...)
#define USTRUCT(...)
#define UENUM(...)
#define UPROPERTY(...)
#define UFUNCTION(...)
#define UMETA(...)
#define GENERATED_BODY()
#define GENERATED_UCLASS_BODY()
#define GENERATED_USTRUCT_BODY()

// ---------------------------------------------------------------- basic types
typedef int32_t int32;
typedef uint32_t uint32;
typedef uint8_t uint8;
typedef int64_t int64;
typedef uint64_t uint64;
typedef char16_t TCHAR;
#define TEXT(x) u##x

enum { INDEX_NONE = -1 };

// ---------------------------------------------------------------- assertions (function-like, as in UE)
namespace ShimDetail { [[noreturn]] inline void AssertFailed(const char*) { std::abort(); } }
#define check(expr) do { if (!(expr)) { ::ShimDetail::AssertFailed(#expr); } } while (0)
#define checkSlow(expr) check(expr)
#define verify(expr) check(expr)
#define ensure(expr) (!!(expr))

// ---------------------------------------------------------------- strings
class FString
{
public:
	FString() = default;
	FString(const TCHAR* In) : Data(In ? In : u"") {}
	const TCHAR* operator*() const { return Data.c_str(); }
	bool IsEmpty() const { return Data.empty(); }
	FString& operator+=(const TCHAR* In) { Data += In; return *this; }
	FString& operator+=(const FString& In) { Data += In.Data; return *this; }

	/** Printf-style arguments must be numbers, enums or pointers (e.g. *String), as in UE. */
	template <typename... ArgTypes>
	static FString Printf(const TCHAR* Fmt, ArgTypes... Args)
	{
		static_assert(((std::is_arithmetic<ArgTypes>::value || std::is_pointer<ArgTypes>::value ||
			std::is_enum<ArgTypes>::value) && ...), "FString::Printf takes numbers and pointers (use *String)");
		((void)Args, ...);
		return FString(Fmt);
	}

private:
	std::u16string Data;
};

namespace ShimDetail { inline const TCHAR* Widen(const char*) { return u""; } }
#define ANSI_TO_TCHAR(x) ::ShimDetail::Widen(x)
#define UTF8_TO_TCHAR(x) ::ShimDetail::Widen(x)

enum EName { NAME_None = 0 };

class FName
{
public:
	FName() = default;
	FName(EName) {}
	FName(const TCHAR* In) : Text(In) {}
	FString ToString() const { return Text; }
	bool operator==(const FName& Other) const { return *Text == *Other.Text; }
	bool operator!=(const FName& Other) const { return !(*this == Other); }

private:
	FString Text;
};

class FText
{
public:
	static FText FromName(const FName&) { return FText(); }
	static FText FromString(const FString&) { return FText(); }
	static FText FromLiteral(const char* /*Namespace*/, const char* /*Key*/, const TCHAR* /*Source*/) { return FText(); }
	template <typename... ArgTypes>
	static FText Format(const FText& Pattern, ArgTypes&&... Args)
	{
		static_assert((std::is_convertible<ArgTypes, FText>::value && ...), "FText::Format takes FText arguments here");
		((void)Args, ...);
		return Pattern;
	}
	bool IsEmpty() const { return true; }
};
#define LOCTEXT(InKey, InTextLiteral) FText::FromLiteral(LOCTEXT_NAMESPACE, InKey, TEXT(InTextLiteral))
#define NSLOCTEXT(InNamespace, InKey, InTextLiteral) FText::FromLiteral(InNamespace, InKey, TEXT(InTextLiteral))

// ---------------------------------------------------------------- logging
struct FLogCategoryBase {};
#define DECLARE_LOG_CATEGORY_EXTERN(CategoryName, DefaultVerbosity, CompileTimeVerbosity) extern FLogCategoryBase CategoryName
#define DEFINE_LOG_CATEGORY(CategoryName) FLogCategoryBase CategoryName
#define UE_LOG(CategoryName, Verbosity, Format, ...) ((void)sizeof(CategoryName), (void)FString::Printf(Format, ##__VA_ARGS__))

// ---------------------------------------------------------------- containers
class FDefaultAllocator {};
template <int NumInlineElements> class TInlineAllocator {};

template <typename T, typename Allocator = FDefaultAllocator>
class TArray
{
public:
	int32 Num() const { return static_cast<int32>(Items.size()); }
	T* GetData() { return Items.data(); }
	const T* GetData() const { return Items.data(); }
	T& operator[](int32 Index) { return Items[static_cast<size_t>(Index)]; }
	const T& operator[](int32 Index) const { return Items[static_cast<size_t>(Index)]; }
	int32 Add(const T& Item) { Items.push_back(Item); return Num() - 1; }
	int32 AddUnique(const T& Item)
	{
		for (int32 I = 0; I < Num(); ++I) { if (Items[static_cast<size_t>(I)] == Item) { return I; } }
		return Add(Item);
	}
	void Reserve(int32 Number) { Items.reserve(static_cast<size_t>(Number)); }
	void Reset(int32 /*NewSize*/ = 0) { Items.clear(); }
	void SetNum(int32 NewNum) { Items.resize(static_cast<size_t>(NewNum)); }
	void SetNumUninitialized(int32 NewNum) { Items.resize(static_cast<size_t>(NewNum)); }
	T* begin() { return Items.data(); }
	T* end() { return Items.data() + Items.size(); }
	const T* begin() const { return Items.data(); }
	const T* end() const { return Items.data() + Items.size(); }

private:
	std::vector<T> Items;
};

template <typename ObjectType>
class TSharedPtr
{
public:
	bool IsValid() const { return Object != nullptr; }
	ObjectType* operator->() const { return Object.get(); }
	ObjectType* Get() const { return Object.get(); }

private:
	std::shared_ptr<ObjectType> Object;
};

template <typename TEnum>
class TEnumAsByte
{
public:
	TEnumAsByte() = default;
	TEnumAsByte(TEnum InValue) : Value(static_cast<uint8>(InValue)) {}
	TEnum GetValue() const { return static_cast<TEnum>(Value); }
	operator TEnum() const { return GetValue(); }
	bool operator==(TEnum InValue) const { return GetValue() == InValue; }

private:
	uint8 Value = 0;
};

// ---------------------------------------------------------------- math (UE5 large world coordinates: doubles)
struct FVector
{
	double X = 0.0;
	double Y = 0.0;
	double Z = 0.0;

	FVector() = default;
	FVector(double InX, double InY, double InZ) : X(InX), Y(InY), Z(InZ) {}
	bool IsNearlyZero(double Tolerance = 1e-4) const
	{
		return (X < 0 ? -X : X) <= Tolerance && (Y < 0 ? -Y : Y) <= Tolerance && (Z < 0 ? -Z : Z) <= Tolerance;
	}
	static const FVector ZeroVector;
};
inline const FVector FVector::ZeroVector{0.0, 0.0, 0.0};

struct FQuat
{
	double X = 0.0;
	double Y = 0.0;
	double Z = 0.0;
	double W = 1.0;

	FQuat() = default;
	FQuat(double InX, double InY, double InZ, double InW) : X(InX), Y(InY), Z(InZ), W(InW) {}
	static const FQuat Identity;
};
inline const FQuat FQuat::Identity{0.0, 0.0, 0.0, 1.0};

struct FTransform
{
	FTransform() = default;
	explicit FTransform(const FVector& InTranslation) : Translation(InTranslation) {}
	FTransform(const FQuat& InRotation, const FVector& InTranslation, const FVector& InScale3D)
		: Rotation(InRotation), Translation(InTranslation), Scale3D(InScale3D) {}

	FQuat GetRotation() const { return Rotation; }
	FVector GetTranslation() const { return Translation; }
	FVector GetScale3D() const { return Scale3D; }
	static const FTransform Identity;

private:
	FQuat Rotation;
	FVector Translation;
	FVector Scale3D{1.0, 1.0, 1.0};
};
inline const FTransform FTransform::Identity{};

struct FLinearColor
{
	float R = 0.0f, G = 0.0f, B = 0.0f, A = 1.0f;
};
