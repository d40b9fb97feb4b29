# Install claudecm on Windows: download the release binary and the release's
# SHA256SUMS, check the binary against it, and only then put it in
# ~\.local\bin (or the folder you choose) as claudecm.exe.
#
#   irm <release>/install.ps1 | iex
#   powershell -ExecutionPolicy Bypass -File install.ps1 [-Dir DIR]
#
# Environment:
#   CLAUDECM_INSTALL_DIR   where to install (default ~\.local\bin; -Dir wins)
#   CLAUDECM_VERSION       a release tag such as v0.1.0 (default: the latest release)
#   CLAUDECM_REPO          the GitHub repository (owner/name) to download from
#   CLAUDECM_RELEASE_URL   a folder holding the assets and SHA256SUMS, used
#                          instead of the GitHub release (a mirror, a test)
#   CLAUDECM_INSTALL_OS, CLAUDECM_INSTALL_ARCH
#                          take the place of the detected OS (Windows) and
#                          PROCESSOR_ARCHITECTURE
#
# Linux and macOS: use install.sh.

param([string]$Dir = "")

$ErrorActionPreference = "Stop"
$ProgressPreference = "SilentlyContinue"

# The release workflow writes the repository here in the copy it uploads.
$DefaultRepo = "@GITHUB_REPOSITORY@"

function Get-ClaudecmAsset([string]$Os, [string]$Arch) {
  if ($Os -ne "Windows") { return $null }
  switch ($Arch.ToUpperInvariant()) {
    "AMD64" { return "claudecm-windows-x86_64.exe" }
    "X86_64" { return "claudecm-windows-x86_64.exe" }
    # Windows 11 on ARM runs x64 programs under emulation.
    "ARM64" { return "claudecm-windows-x86_64.exe" }
  }
  return $null
}

function Get-DetectedArch {
  # A 32-bit PowerShell on 64-bit Windows reports x86 here and the truth in W6432.
  if ($env:PROCESSOR_ARCHITEW6432) { return $env:PROCESSOR_ARCHITEW6432 }
  return $env:PROCESSOR_ARCHITECTURE
}

function Get-ReleaseBase {
  if ($env:CLAUDECM_RELEASE_URL) { return $env:CLAUDECM_RELEASE_URL.TrimEnd("/") }
  $repo = if ($env:CLAUDECM_REPO) { $env:CLAUDECM_REPO } else { $DefaultRepo }
  if ($repo -notmatch '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$') {
    throw "no release to download from: set CLAUDECM_REPO=owner/name or CLAUDECM_RELEASE_URL"
  }
  if ($env:CLAUDECM_VERSION) {
    return "https://github.com/$repo/releases/download/$($env:CLAUDECM_VERSION)"
  }
  return "https://github.com/$repo/releases/latest/download"
}

function Save-Url([string]$Url, [string]$Path) {
  try {
    Invoke-WebRequest -Uri $Url -OutFile $Path -UseBasicParsing
  } catch {
    throw "could not download ${Url}: $($_.Exception.Message)"
  }
}

# The checksum SHA256SUMS lists for an asset ("HASH  NAME" or "HASH *NAME").
function Get-ExpectedSum([string]$SumsPath, [string]$Asset) {
  foreach ($line in Get-Content -LiteralPath $SumsPath) {
    $fields = $line.Trim() -split '\s+', 2
    if ($fields.Count -eq 2 -and ($fields[1] -eq $Asset -or $fields[1] -eq "*$Asset")) {
      return $fields[0].ToLowerInvariant()
    }
  }
  return $null
}

function Write-PathAdvice([string]$Folder) {
  $entries = @($env:Path -split ';') + @(([Environment]::GetEnvironmentVariable("Path", "User") -as [string]) -split ';')
  if ($entries | Where-Object { $_ -and $_.TrimEnd('\') -ieq $Folder.TrimEnd('\') }) { return }
  Write-Host ""
  Write-Host "$Folder is not on your PATH. To add it for your user, run:"
  Write-Host "  [Environment]::SetEnvironmentVariable('Path', '$Folder;' + [Environment]::GetEnvironmentVariable('Path', 'User'), 'User')"
  Write-Host "then open a new terminal."
}

function Install-Claudecm([string]$Folder) {
  if (-not $Folder) { $Folder = $env:CLAUDECM_INSTALL_DIR }
  if (-not $Folder) {
    $profileDir = if ($env:USERPROFILE) { $env:USERPROFILE } else { $HOME }
    $Folder = Join-Path $profileDir ".local\bin"
  }
  # A relative folder is taken from here; the PATH advice must name it whole.
  $Folder = $ExecutionContext.SessionState.Path.GetUnresolvedProviderPathFromPSPath($Folder)

  $os = [Environment]::OSVersion.Platform.ToString()
  if ([Environment]::OSVersion.Platform -eq [PlatformID]::Win32NT) { $os = "Windows" }
  if ($env:CLAUDECM_INSTALL_OS) { $os = $env:CLAUDECM_INSTALL_OS }
  $arch = if ($env:CLAUDECM_INSTALL_ARCH) { $env:CLAUDECM_INSTALL_ARCH } else { Get-DetectedArch }
  $asset = Get-ClaudecmAsset $os $arch
  if (-not $asset) {
    throw "no claudecm binary for $os $arch (there is a Windows build for x86_64; on Linux and macOS use install.sh)"
  }
  $base = Get-ReleaseBase

  # Older Windows PowerShell offers only TLS 1.0 unless asked.
  [Net.ServicePointManager]::SecurityProtocol = [Net.ServicePointManager]::SecurityProtocol -bor [Net.SecurityProtocolType]::Tls12

  $tmp = Join-Path ([IO.Path]::GetTempPath()) ("claudecm-install-" + [Guid]::NewGuid().ToString("N"))
  New-Item -ItemType Directory -Path $tmp | Out-Null
  try {
    Write-Host "Downloading $asset from $base"
    $sums = Join-Path $tmp "SHA256SUMS"
    $download = Join-Path $tmp $asset
    Save-Url "$base/SHA256SUMS" $sums
    Save-Url "$base/$asset" $download
    $expected = Get-ExpectedSum $sums $asset
    if (-not $expected) { throw "SHA256SUMS has no line for $asset; nothing installed" }
    $actual = (Get-FileHash -LiteralPath $download -Algorithm SHA256).Hash.ToLowerInvariant()
    if ($actual -ne $expected) {
      throw "checksum mismatch for $asset (expected $expected, got $actual); nothing installed"
    }

    New-Item -ItemType Directory -Force -Path $Folder | Out-Null
    $target = Join-Path $Folder "claudecm.exe"
    # Copy beside the target, then rename over it: nothing half-written is
    # ever named claudecm.exe.
    $staged = "$target.download"
    Copy-Item -LiteralPath $download -Destination $staged -Force
    try {
      Move-Item -LiteralPath $staged -Destination $target -Force
    } catch {
      Remove-Item -LiteralPath $staged -Force -ErrorAction SilentlyContinue
      throw "cannot replace ${target} (is claudecm running?): $($_.Exception.Message)"
    }
  } finally {
    Remove-Item -LiteralPath $tmp -Recurse -Force -ErrorAction SilentlyContinue
  }

  try {
    $version = & $target --version 2>$null
    Write-Host "Installed claudecm $version at $target"
  } catch {
    Write-Host "Installed $target, but it did not start here: run '$target --version' to see why"
  }
  Write-PathAdvice $Folder
  # The one step that turns on tab completion (claudecm completions --help).
  Write-Host "Tab completion: add  claudecm completions powershell | Out-String | Invoke-Expression  to `$PROFILE"
}

try {
  Install-Claudecm $Dir
} catch {
  [Console]::Error.WriteLine("claudecm install: $($_.Exception.Message)")
  # Run as a file: fail with exit code 1. Piped into iex: return, so the
  # user's own PowerShell window stays open.
  if ($MyInvocation.MyCommand.CommandType -eq "ExternalScript") { exit 1 }
}
