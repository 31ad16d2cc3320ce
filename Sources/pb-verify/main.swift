import PBAnswer
import PBCore

Tool.main(VerifyCommand.spec) { try VerifyCommand.run($0) }
