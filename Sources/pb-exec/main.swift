import PBAgent
import PBCore

Tool.main(ExecCommand.spec) { try ExecCommand.run($0) }
