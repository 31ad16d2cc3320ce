import PBCore
import PBIndex

Tool.main(IndexCommand.spec) { try IndexCommand.run($0) }
